import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's response serializers (fast-json-stringify), each compiled on its route's first
 * response of that status rather than all before the server listens. Compiling them all took
 * about half of the start-up (a new Ajv instance per response schema); a route pays its own
 * compile once, on first use (docs/performance.md).
 */
export function lazySerializers(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => {
        serialize ??= compile(route) as (data: unknown) => string;
        return serialize(data);
      };
    };
  };
}

import type { FastifyInstance, RouteOptions } from 'fastify';

type RouteHookName = 'preHandler' | 'onSend' | 'onResponse';

/** Marks the hooks added here, so that a later one goes after them and before the route's own. */
const ADDED = Symbol('crewplan route hook');

/** The methods of requests that change data: what the write-only hooks run for. */
export const CHANGE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A test of a route: it takes one of these methods. */
export const takesAnyOf = (methods: ReadonlySet<string>) => (route: RouteOptions) =>
  (Array.isArray(route.method) ? route.method : [route.method]).some((method) => methods.has(method));

/**
 * Adds `hook` to the routes registered from now on in `app`'s scope (and the scopes under it) for
 * which `applies` holds, as a route-level hook (Fastify's `onRoute`): requests of the other routes
 * never run it. Every async hook a request passes through costs it a promise and a turn of the
 * microtask queue, and a read (GET) has no use for the hooks of writes. The hook runs after the
 * scope's own hooks of its kind, before the route's, in the order the hooks were added here.
 */
export function addRouteHook(
  app: FastifyInstance,
  name: RouteHookName,
  applies: (route: RouteOptions) => boolean,
  hook: (...args: never[]) => unknown,
): void {
  const marked = Object.assign(hook, { [ADDED]: true });
  app.addHook('onRoute', (route) => {
    if (!applies(route)) return;
    const given = route[name] as unknown;
    const hooks = (given === undefined ? [] : Array.isArray(given) ? [...given] : [given]) as Array<{
      [ADDED]?: boolean;
    }>;
    let at = 0;
    while (at < hooks.length && hooks[at]![ADDED]) at += 1;
    hooks.splice(at, 0, marked);
    (route as unknown as Record<RouteHookName, unknown>)[name] = hooks;
  });
}

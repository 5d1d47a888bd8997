import pino from 'pino';
import { buildApp } from './app.js';
import { type Config, loadConfig, logLevelFrom, secretKeyIsFile, storageFrom } from './config.js';
import { checkStorage, recordServer, startupFacts, startupMessage } from './startup.js';

/**
 * `npm start` (`--create`: create a missing data directory or SQLite folder other than the default). A
 * start-up failure is one or two sentences on stderr and exit code 1; its stack only with LOG_LEVEL=debug.
 */
let config: Readonly<Config> | undefined;
try {
  checkStorage(storageFrom(), { create: process.argv.slice(2).includes('--create'), secretKeyFile: secretKeyIsFile() });
  config = loadConfig();
  const facts = startupFacts(config);
  // written at once (sync), so that it is the first line, before any line of the server's own logger
  pino({ level: config.logLevel }, pino.destination({ dest: 1, sync: true })).info(
    facts,
    `crewplan ${facts.version}: database ${facts.database}, data dir ${facts.data_dir}, listening on ${facts.url}`,
  );
  const app = await buildApp(config);
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  await recordServer(app.db, config);
} catch (error) {
  process.stderr.write(`crewplan could not start: ${startupMessage(error, config)}\n`);
  if ((config?.logLevel ?? logLevelFrom()) === 'debug' && error instanceof Error)
    process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}

import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Uploaded certification documents live under `<dataDir>/certifications/` with generated names. */
function folder(dataDir: string): string {
  return join(dataDir, 'certifications');
}

/** A name of our own making: the client's file name never reaches the file system. */
export async function storeFile(dataDir: string, data: Buffer): Promise<string> {
  await mkdir(folder(dataDir), { recursive: true, mode: 0o700 });
  const name = randomUUID();
  await writeFile(join(folder(dataDir), name), data, { flag: 'wx', mode: 0o600 });
  return name;
}

export function readStoredFile(dataDir: string, name: string): Promise<Buffer> {
  return readFile(join(folder(dataDir), name));
}

export async function removeStoredFiles(dataDir: string, names: string[]): Promise<void> {
  await Promise.all(names.map((name) => rm(join(folder(dataDir), name), { force: true })));
}

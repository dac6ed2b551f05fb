// The file store on the data folder (DATA_DIR/files): one file per key, its content type in a
// sidecar file. Writes go to a temporary name and are renamed, so a reader never sees half a file
// (and a crash in the middle of a write leaves only a `.tmp` file, which `list` never shows).
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { dirname, join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PortFailure } from '../control.ts';
import { validKey, type FilesPort } from './files.port.ts';
import { field } from '../../shared/json-values.ts';

const META = '.content-type';

export function dataFolderFiles(root: string): FilesPort {
  const path = (key: string, op: string) => {
    if (!validKey(key) || key.endsWith(META)) throw new PortFailure('files', op, `invalid key "${key}"`);
    return join(root, key);
  };
  return {
    async put(key, bytes, contentType) {
      const p = path(key, 'put');
      await mkdir(dirname(p), { recursive: true });
      const tmp = `${p}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes);
      await writeFile(p + META, contentType);
      await rename(tmp, p);
    },
    async putStream(key, stream, contentType) {
      const p = path(key, 'putStream');
      await mkdir(dirname(p), { recursive: true });
      const tmp = `${p}.${randomBytes(6).toString('hex')}.tmp`;
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(stream, count, createWriteStream(tmp));
        await writeFile(p + META, contentType);
        await rename(tmp, p);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
      return { size };
    },
    async openRead(key, range) {
      const p = path(key, 'openRead');
      const info = await stat(p).catch((err: unknown) => {
        if (field(err, 'code') === 'ENOENT') return undefined;
        throw err;
      });
      if (!info?.isFile()) return undefined;
      const contentType = await readFile(p + META, 'utf8').catch(() => 'application/octet-stream');
      const stream: Readable = createReadStream(p, range ? { start: range.start, end: range.end } : {});
      return { stream, size: info.size, contentType };
    },
    async size(key) {
      const p = path(key, 'size');
      const info = await stat(p).catch(() => undefined);
      return info?.isFile() ? info.size : undefined;
    },
    async stat(key) {
      const p = path(key, 'stat');
      const info = await stat(p).catch(() => undefined);
      return info?.isFile() ? { size: info.size, modifiedAt: info.mtime } : undefined;
    },
    async get(key) {
      const p = path(key, 'get');
      try {
        const bytes = await readFile(p);
        const contentType = await readFile(p + META, 'utf8').catch(() => 'application/octet-stream');
        return { key, contentType, size: bytes.length, bytes };
      } catch (err) {
        if (field(err, 'code') === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      const p = path(key, 'delete');
      const existed = await stat(p).then(
        () => true,
        () => false,
      );
      await rm(p, { force: true });
      await rm(p + META, { force: true });
      return existed;
    },
    async list(prefix) {
      const all = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      return all
        .filter((d) => d.isFile() && !d.name.endsWith(META) && !d.name.endsWith('.tmp'))
        .map((d) => relative(root, join(d.parentPath, d.name)).split('\\').join('/'))
        .filter((k) => k.startsWith(prefix))
        .sort();
    },
  };
}

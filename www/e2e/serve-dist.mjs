// A minimal static file server for the e2e tests of the built app: serves ../../dist under a
// sub-path (default /sub/path/), as a static host would (GitHub Pages serves a project at
// /<repo>/). Everything else is a 404, so an absolute URL in the build fails the test.
//   node e2e/serve-dist.mjs [PORT] [SUBPATH]
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../dist/', import.meta.url));
const port = Number(process.argv[2] || 8392);
const base = process.argv[3] || '/sub/path/';
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png',
};

createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (path === base.slice(0, -1)) {
    res.writeHead(301, { Location: base }).end();
    return;
  }
  let file = path.startsWith(base) ? normalize(join(root, path.slice(base.length))) : null;
  if (file && !file.startsWith(root)) file = null;
  try {
    if (!file) throw new Error('outside');
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    const body = await readFile(file);
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' }).end(body);
  } catch {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`404: ${path}\n`);
  }
}).listen(port, '127.0.0.1', () => console.log(`serving ${root} at http://127.0.0.1:${port}${base}`));

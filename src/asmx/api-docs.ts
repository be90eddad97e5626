/** {BASE_PATH}/API/docs: the OpenAPI document in Swagger UI, every asset served here, so it works without internet. */
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import type { Settings } from '../config';
import { publicAddress } from './request-url';
import { escapeXml as esc } from './xml-escape';

/** The only files of the package that the page loads; nothing else of node_modules is reachable. */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);
const DIST = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** A file rather than inline, so a proxy's Content-Security-Policy may forbid inline scripts; no public validator. */
const INIT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({ url: root.getAttribute('data-url'), dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true });
});
`;

export function apiDocs(settings: Settings): Router {
  const router = Router();
  const at = `${settings.basePath}/API/docs`;
  router.get(at, (req: Request, res: Response) => {
    const root = publicAddress(req, settings).prefix + at;
    res.status(200).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, max-age=0' }).send(page(root));
  });
  router.get(`${at}/init.js`, (_req, res) => {
    res.status(200).set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'private, max-age=0' }).send(INIT);
  });
  router.get(`${at}/:asset`, (req, res, next) => {
    const asset = req.params.asset;
    if (!ASSETS.has(asset)) return next();
    res.set('Cache-Control', 'private, max-age=0').sendFile(path.join(DIST, asset), { cacheControl: false });
  });
  return router;
}

function page(root: string): string {
  const openApi = root.slice(0, -'/docs'.length) + '/openapi.json';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>API documentation</title>
    <link rel="stylesheet" href="${esc(root)}/swagger-ui.css" />
    <link rel="icon" type="image/png" href="${esc(root)}/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui" data-url="${esc(openApi)}"></div>
    <script src="${esc(root)}/swagger-ui-bundle.js"></script>
    <script src="${esc(root)}/init.js"></script>
  </body>
</html>
`;
}

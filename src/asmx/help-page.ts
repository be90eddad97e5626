/**
 * The HTML help pages of a service (docs/contract.md: "the HTML help page listing the operations (sorted),
 * linking ?op=X pages that show the four sample requests/responses, like the legacy help page").
 * Every value that comes from a request or a setting is escaped.
 */
import type { Service, ServiceOperation } from '../services/types';
import { httpNames, operationSamples, type SampleContext } from './help-samples';
import { escapeXml as esc } from './xml-escape';

const STYLE = `
    body { color: #000000; background-color: white; font-family: Verdana; margin-left: 0px; margin-top: 0px; }
    #content { margin-left: 30px; font-size: .70em; padding-bottom: 2em; }
    a:link, a:visited { color: #336699; font-weight: bold; text-decoration: underline; }
    a:hover { color: #cc3300; }
    p { color: #000000; margin-top: 0px; margin-bottom: 12px; font-family: Verdana; }
    pre { background-color: #e5e5cc; padding: 5px; font-family: Courier New; font-size: x-small; margin-top: -5px; border: 1px #f0f0e0 solid; }
    h2 { font-size: 1.5em; font-weight: bold; margin-top: 25px; margin-bottom: 10px; border-top: 1px solid #003366; margin-left: -15px; color: #003366; }
    h3 { font-size: 1.1em; color: #000000; margin-left: -15px; margin-top: 10px; margin-bottom: 10px; }
    ul { margin-top: 10px; margin-left: 20px; }
    li { margin-top: 10px; color: #000000; }
    .heading1 { color: #ffffff; font-family: Tahoma; font-size: 26px; font-weight: normal; background-color: #003366; margin-top: 0px; margin-bottom: 0px; margin-left: -30px; padding-top: 10px; padding-bottom: 3px; padding-left: 15px; width: 105%; }
    .intro { margin-left: -15px; }
    table { font-size: 1em; }
    td { padding: 2px 8px; border: 1px solid #e5e5cc; }`;

/** Operation names sorted as the legacy page shows them: case-insensitively. */
function sortedOperationNames(service: Service): string[] {
  return [...service.operations.keys()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || (a < b ? -1 : 1));
}

export function helpPage(service: Service): string {
  const items = sortedOperationNames(service)
    .map((name) => `      <li><a href="?op=${encodeURIComponent(name)}">${esc(name)}</a></li>`)
    .join('\n');
  return page(service, `
    <span>
      <p class="intro">The following operations are supported. For a formal definition, please review the <a href="?WSDL">Service Description</a>.</p>
      <ul>
${items}
      </ul>
    </span>`);
}

export function operationHelpPage(service: Service, op: ServiceOperation, ctx: SampleContext): string {
  const samples = operationSamples(service, op, ctx)
    .map((s) => `
      <span>
        <h3>${esc(s.title)}</h3>
        <p>${esc(s.intro)}</p>
        <pre>${esc(s.request)}</pre>
        <pre>${esc(s.response)}</pre>
      </span>`)
    .join('\n');
  return page(service, `
    <p class="intro">Click <a href="?">here</a> for a complete list of operations.</p>
    <h2>${esc(op.name)}</h2>
${parameterTable(service, op)}
${samples}`);
}

export function operationNotFoundPage(service: Service, name: string): string {
  return page(service, `
    <h2>Error</h2>
    <p class="intro">${esc(operationNotFoundMessage(service, name))}</p>
    <p class="intro">Click <a href="?">here</a> for a complete list of operations.</p>`);
}

function operationNotFoundMessage(service: Service, name: string): string {
  return `Method '${name}' was not found in service ${service.name}.`;
}

function parameterTable(service: Service, op: ServiceOperation): string {
  const names = httpNames(op, service);
  if (names.length === 0) return '    <p class="intro">This operation takes no parameters.</p>';
  const label = op.params.length > 0 || service.contract === 'v2' ? 'Parameters (every parameter is optional)' : 'Fields (sent as extra named fields; every field is optional)';
  const rows = names.map((n) => `        <tr><td>${esc(n)}</td><td>string</td></tr>`).join('\n');
  return `    <h3>${label}</h3>\n    <table>\n${rows}\n    </table>`;
}

function page(service: Service, body: string): string {
  return `<html>
  <head>
    <meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
    <style type="text/css">${STYLE}
    </style>
    <title>${esc(service.name)} Web Service</title>
  </head>
  <body>
    <div id="content">
      <p class="heading1">${esc(service.name)}</p><br>
${body}
    </div>
  </body>
</html>
`;
}

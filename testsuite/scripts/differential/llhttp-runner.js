// llhttp's side of the HTTP/1.1 differential run (HttpDifferential in testsuite/): reads a corpus
// file (one "METHOD BASE64" entry a line, METHOD "-" for a request) and prints one verdict line per
// entry in the canonical form RillHttpRunner documents. llhttp is Node's own parser, used through
// the binding Node's http module uses, with no lenient flags: its strict default.
'use strict';
const fs = require('fs');
const crypto = require('crypto');
process.noDeprecation = true; // the binding is deprecated for applications; it is what we test
const { HTTPParser, methods } = process.binding('http_parser');

const hex = (s) => Buffer.from(s, 'latin1').toString('hex');
const trimOws = (s) => s.replace(/^[ \t]+|[ \t]+$/g, '');

function fields(flat) {
  const out = [];
  for (let i = 0; i < flat.length; i += 2) {
    out.push(hex(flat[i].toLowerCase()) + '=' + hex(trimOws(flat[i + 1])));
  }
  return out.join('+');
}

function run(method, data) {
  const request = method === '-';
  const p = new HTTPParser();
  p.initialize(request ? HTTPParser.REQUEST : HTTPParser.RESPONSE, {}, 0, HTTPParser.kLenientNone || 0);
  const messages = [];
  let pendingHeaders = [];
  let pendingUrl = '';
  let current = null;
  let answered = false; // the first final response answers `method`; later ones answer a GET
  let switched = false;
  p[HTTPParser.kOnHeaders] = (headers, url) => {
    pendingHeaders = pendingHeaders.concat(headers);
    pendingUrl += url || '';
  };
  p[HTTPParser.kOnHeadersComplete] = (major, minor, headers, m, url, status, statusMessage, upgrade) => {
    if (!headers) {
      headers = pendingHeaders;
    }
    if (!url) {
      url = pendingUrl;
    }
    pendingHeaders = [];
    pendingUrl = '';
    const head = request ? hex(methods[m]) + '.' + hex(url) : String(status);
    current = { prefix: major + '.' + minor + ',' + head + ',' + fields(headers) + ',', hash: crypto.createHash('sha256'), length: 0 };
    if (upgrade) {
      switched = true;
    }
    if (!request && status >= 200 && !answered) {
      answered = true;
      if (method === 'HEAD') {
        return 1; // no body, whatever the framing fields say (RFC 9110 §9.3.2)
      }
    }
    return 0;
  };
  p[HTTPParser.kOnBody] = (b) => {
    current.hash.update(b);
    current.length += b.length;
  };
  p[HTTPParser.kOnMessageComplete] = () => {
    const trailers = fields(pendingHeaders);
    pendingHeaders = [];
    pendingUrl = '';
    messages.push(current.prefix + current.length + ':' + current.hash.digest('hex') + ',' + trailers);
    current = null;
  };
  const r = p.execute(data);
  if (r instanceof Error) {
    return 'R ' + r.code + ' ' + r.reason;
  }
  if (switched || r < data.length) {
    if (current) {
      messages.push(current.prefix + '0:' + crypto.createHash('sha256').digest('hex') + ',');
    }
    return messages.length ? 'A ' + messages.join(' ') + ' ^' : 'R no message';
  }
  const f = p.finish();
  if (f instanceof Error) {
    return 'R ' + f.code + ' ' + f.reason;
  }
  if (current) {
    return 'R input ended inside a message';
  }
  return messages.length ? 'A ' + messages.join(' ') : 'R no message';
}

const lines = fs.readFileSync(process.argv[2], 'latin1').split('\n');
const out = [];
for (const line of lines) {
  if (!line) {
    continue;
  }
  const sp = line.indexOf(' ');
  let verdict;
  try {
    verdict = run(line.slice(0, sp), Buffer.from(line.slice(sp + 1), 'base64'));
  } catch (e) {
    verdict = 'R exception ' + String(e).replace(/\n/g, ' ');
  }
  out.push(verdict);
  if (out.length >= 4096) {
    fs.writeSync(1, out.join('\n') + '\n');
    out.length = 0;
  }
}
if (out.length) {
  fs.writeSync(1, out.join('\n') + '\n');
}

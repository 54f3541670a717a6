import t from 'tap';
import { baseUrlProblem, endpoint, formatFailure, isTokenShaped, readResponse } from '../../../../services/cli/client.js';

const problemResponse = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/problem+json' } });

t.test('a problem prints as status, title and detail, then one line per field error', async (t) => {
  t.equal(
    formatFailure({
      kind: 'problem',
      problem: {
        type: 'urn:ops:problem:validation',
        title: 'Invalid data model',
        status: 400,
        detail: 'The body does not match the schema',
        errors: [
          { path: '/name', message: 'must be a string' },
          { path: '/roles/0', message: 'unknown role' },
        ],
      },
    }),
    'error: 400 Invalid data model: The body does not match the schema\n  /name: must be a string\n  /roles/0: unknown role\n',
  );
  t.equal(formatFailure({ kind: 'problem', problem: { type: 'about:blank', title: 'Not found', status: 404, detail: '' } }), 'error: 404 Not found\n');
  t.equal(formatFailure({ kind: 'network', message: 'cannot reach http://h/api/admin/v1/me: ECONNREFUSED' }), 'error: cannot reach http://h/api/admin/v1/me: ECONNREFUSED\n');
  t.equal(
    formatFailure({ kind: 'problem', problem: { type: 'x', title: 'Conflict\u001b[2J', status: 409, detail: 'two\nlines' } }),
    'error: 409 Conflict\\x1b[2J: two\\nlines\n',
    'control characters are neutralised',
  );
});

t.test('answers become results', async (t) => {
  t.same(await readResponse(new Response('[{"id":1}]', { status: 200 })), { ok: true, status: 200, data: [{ id: 1 }] });
  t.same(await readResponse(new Response(null, { status: 204 })), { ok: true, status: 204, data: undefined });
  const problem = { type: 'urn:ops:problem:not-found', title: 'Not found', status: 404, detail: 'User 9 not found' };
  t.same(await readResponse(problemResponse(404, problem)), { ok: false, failure: { kind: 'problem', problem } });
  t.same(await readResponse(new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })), {
    ok: false,
    failure: { kind: 'problem', problem: { type: 'about:blank', title: 'Bad Gateway', status: 502, detail: '<html>bad gateway</html>' } },
  });
  t.same(await readResponse(new Response('{"message":"nope"}', { status: 500 })), {
    ok: false,
    failure: { kind: 'problem', problem: { type: 'about:blank', title: 'Error', status: 500, detail: '{"message":"nope"}' } },
  });
  const html = await readResponse(new Response('<html></html>', { status: 200 }));
  t.same(html, { ok: false, failure: { kind: 'network', message: "the answer (200) is not JSON; is the URL the platform's?" } });
});

t.test('base URLs, endpoints and token shape', async (t) => {
  t.equal(baseUrlProblem('http://localhost:8080'), undefined);
  t.equal(baseUrlProblem('https://ops.example.com/behind/proxy/'), undefined);
  t.equal(baseUrlProblem('ftp://h'), 'must be an http:// or https:// URL');
  t.equal(baseUrlProblem(''), 'must be an http:// or https:// URL');
  t.equal(baseUrlProblem('https://u@h'), 'must not contain credentials (the token comes from OPS_TOKEN)');
  t.equal(baseUrlProblem('https://h#x'), 'must not have a query or fragment');
  t.equal(endpoint('http://h:1/', '/users'), 'http://h:1/api/admin/v1/users');
  t.equal(endpoint('https://h/p//', '/me'), 'https://h/p/api/admin/v1/me');
  t.ok(isTokenShaped('abc-DEF_123.~+/='));
  t.notOk(isTokenShaped('has space'));
  t.notOk(isTokenShaped('line\nbreak'));
  t.notOk(isTokenShaped(''));
});

/**
 * Judges an answer of the REST API against the OpenAPI document it serves (docs/product.md §5:
 * the document states what the server does): its status is one the operation documents, its
 * content type one that status documents, its headers those documented (the required ones
 * present, each of its schema) and its body valid against the schema of that status and media
 * type — by Ajv (JSON Schema 2020-12, as OpenAPI 3.1's schemas are) with its formats. What the
 * document states in its introduction rather than per operation is judged as stated there: a
 * method a path does not answer is 405 with `Allow`, `HEAD` answers as `GET` would with no body,
 * `OPTIONS` is 204 with `Allow`, an unknown path under /v1 is 404 `not_found`.
 *
 * Used by every REST test through server/testing/rest.ts `callRoute`, and by the e2e API tests
 * through e2e/support/api.ts, on the document the server serves.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Doc = { paths?: Record<string, Record<string, unknown>>; components?: { responses?: Record<string, unknown>; schemas?: Record<string, unknown> } };
type ResponseObject = {
  description?: string;
  headers?: Record<string, { required?: boolean; schema?: unknown }>;
  content?: Record<string, { schema?: unknown }>;
};

/** One answer as a client received it. */
export type Answer = { method: string; path: string; status: number; headers: Headers | Record<string, string>; body: string };

const DOC_ID = 'https://api.invalid/openapi.json';
const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Escapes one segment of a JSON Pointer. */
const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * A judge of answers against `doc` (docs/product.md §5: the document states what the server does).
 * @returns `check(answer)`: the ways the answer departs from the document, none when it conforms.
 */
export function answerChecker(doc: Doc): (answer: Answer) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc as object, DOC_ID);
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (at: string) => {
    let v = compiled.get(at);
    if (!v) compiled.set(at, (v = ajv.compile({ $ref: `${DOC_ID}#${at}` })));
    return v;
  };
  const templates = Object.keys(doc.paths ?? {})
    .map((t) => ({ t, re: new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`), literal: !t.includes('{') }))
    // A literal path wins over a template that would also match it.
    .sort((a, b) => Number(b.literal) - Number(a.literal));
  const notFoundAt = Object.entries(doc.components?.schemas ?? {}).find(([name]) => name === 'NotFoundProblem')
    ? pointer('', 'components', 'schemas', 'NotFoundProblem')
    : null;

  /** The response object at a pointer, through its `$ref`. */
  const responseAt = (at: string, res: ResponseObject & { $ref?: string }): { at: string; res: ResponseObject } => {
    if (!res.$ref) return { at, res };
    const name = res.$ref.split('/').pop()!;
    return { at: pointer('', 'components', 'responses', name), res: doc.components!.responses![name] as ResponseObject };
  };

  function checkBody(problems: string[], at: string, res: ResponseObject, answer: Answer, headers: Headers) {
    const contentType = headers.get('content-type');
    if (!res.content) {
      if (answer.body !== '') problems.push(`the document gives this answer no body, but it has ${answer.body.length} bytes`);
      return;
    }
    // A HEAD answer carries no body on the wire, whatever the handler gave it.
    if (answer.method === 'HEAD') return;
    const essence = contentType?.split(';')[0]!.trim().toLowerCase();
    if (!essence || !(essence in res.content)) {
      problems.push(`content type ${contentType ?? '(none)'} is not one the document gives (${Object.keys(res.content).join(', ')})`);
      return;
    }
    let value: unknown = answer.body;
    if (essence === 'application/json' || essence.endsWith('+json')) {
      try {
        value = JSON.parse(answer.body);
      } catch {
        problems.push('the body is not JSON');
        return;
      }
    }
    const validate = validatorAt(`${at}/content/${pointer(essence)}/schema`);
    if (!validate(value)) problems.push(...(validate.errors ?? []).slice(0, 5).map((e) => `body${e.instancePath} ${e.message} (${e.schemaPath})`));
  }

  function checkHeaders(problems: string[], at: string, res: ResponseObject, headers: Headers) {
    for (const [name, h] of Object.entries(res.headers ?? {})) {
      const value = headers.get(name);
      if (value === null) {
        if (h.required) problems.push(`header ${name} is missing`);
        continue;
      }
      const validate = validatorAt(`${at}/headers/${pointer(name)}/schema`);
      // A header is text; an integer header's text is its digits.
      if (!validate(value) && !(/^\d+$/.test(value) && validate(Number(value)))) problems.push(`header ${name}: ${value} does not fit its schema`);
    }
  }

  return (answer) => {
    const problems: string[] = [];
    const headers = answer.headers instanceof Headers ? answer.headers : new Headers(answer.headers);
    // As the server reads it: dot segments resolved, a trailing slash dropped.
    const path = new URL(answer.path, 'http://localhost').pathname.replace(/(.)\/+$/, '$1');
    const method = answer.method.toUpperCase();
    const template = templates.find(({ re }) => re.test(path))?.t;
    if (!template) {
      // An unknown path under /v1: 404 `not_found`, for every method.
      if (answer.status !== 404) return [`${method} ${path}: no documented path, yet answered ${answer.status}, not 404`];
      if (notFoundAt) {
        const validate = validatorAt(notFoundAt);
        if (method !== 'HEAD' && !validate(JSON.parse(answer.body || 'null'))) problems.push(`the 404 body is not a not_found problem`);
      }
      return problems.map((p) => `${method} ${path} → 404: ${p}`);
    }
    const item = doc.paths![template]!;
    const declared = methods.filter((m) => m in item);
    const allow = [...declared.map((m) => m.toUpperCase()), ...(declared.includes('get') ? ['HEAD'] : []), 'OPTIONS'];
    if (method === 'OPTIONS') {
      if (answer.status !== 204) problems.push(`OPTIONS answered ${answer.status}, not 204`);
      const got =
        headers
          .get('allow')
          ?.split(',')
          .map((m) => m.trim()) ?? [];
      if ([...got].sort().join() !== [...allow].sort().join())
        problems.push(`Allow is "${headers.get('allow')}", not the path's methods (${allow.join(', ')})`);
      return problems.map((p) => `OPTIONS ${template}: ${p}`);
    }
    const opMethod = method === 'HEAD' && declared.includes('get') ? 'get' : method.toLowerCase();
    const op = item[opMethod] as { responses: Record<string, ResponseObject & { $ref?: string }> } | undefined;
    // A method the path does not answer: the 405 every operation of the path documents.
    const responses = op?.responses ?? (item[declared[0]!] as { responses: Record<string, ResponseObject & { $ref?: string }> }).responses;
    const opAt = pointer('', 'paths', template, op ? opMethod : declared[0]!);
    if (!op && answer.status !== 405) return [`${method} ${template}: the path does not answer ${method}, yet answered ${answer.status}, not 405`];
    const documented = responses[String(answer.status)];
    if (!documented) return [`${method} ${template}: status ${answer.status} is not documented (${Object.keys(responses).join(', ')})`];
    const { at, res } = responseAt(`${opAt}/responses/${answer.status}`, documented);
    checkHeaders(problems, at, res, headers);
    checkBody(problems, at, res, answer, headers);
    return problems.map((p) => `${method} ${template} → ${answer.status}: ${p}`);
  };
}

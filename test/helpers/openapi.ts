/**
 * Checks real gateway responses against docs/openapi.yaml (OpenAPI 3.1 = JSON Schema 2020-12),
 * with ajv. Also records which operations were exercised, so a test can demand full coverage.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ApiResponse } from './http.js';

// ajv-formats is CommonJS: through NodeNext its default import is module.exports, whose `default` is the plugin.
const addFormats = addFormatsModule.default;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const spec: Json = parse(readFileSync(fileURLToPath(new URL('../../docs/openapi.yaml', import.meta.url)), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, 'openapi');

export const exercised = new Set<string>();

function pointer(...parts: string[]): string {
  return 'openapi#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function deref(node: Json): { node: Json; path: string[] | null } {
  if (node.$ref) {
    const path = String(node.$ref).replace(/^#\//, '').split('/');
    let cur: Json = spec;
    for (const p of path) cur = cur[p];
    return { node: cur, path };
  }
  return { node, path: null };
}

/** Throws with the ajv errors when `res` does not match the spec for this operation and status. */
export function assertMatchesSpec(method: string, pathTemplate: string, res: ApiResponse): void {
  const m = method.toLowerCase();
  const op = spec.paths?.[pathTemplate]?.[m];
  if (!op) throw new Error(`docs/openapi.yaml has no ${method} ${pathTemplate}`);
  const status = String(res.status);
  const declared = op.responses?.[status];
  if (!declared) throw new Error(`docs/openapi.yaml declares no ${status} for ${method} ${pathTemplate}: ${res.text}`);
  exercised.add(`${m} ${pathTemplate} ${status}`);
  const { node: response, path: responsePath } = deref(declared);
  if (!res.headers.get('x-request-id')) throw new Error(`${method} ${pathTemplate} ${status}: no x-request-id`);
  for (const [name, h] of Object.entries<Json>(response.headers ?? {})) {
    const header = deref(h).node;
    if (header.required && res.headers.get(name) === null) throw new Error(`${method} ${pathTemplate} ${status}: missing header ${name}`);
  }
  const contentTypes = Object.keys(response.content ?? {});
  if (contentTypes.length === 0) return;
  const actualType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!contentTypes.includes(actualType)) {
    throw new Error(`${method} ${pathTemplate} ${status}: content-type ${actualType}, spec says ${contentTypes.join(', ')}`);
  }
  const schemaRef = responsePath
    ? pointer(...responsePath, 'content', actualType, 'schema')
    : pointer('paths', pathTemplate, m, 'responses', status, 'content', actualType, 'schema');
  const validate = ajv.getSchema(schemaRef);
  if (!validate) throw new Error(`no schema at ${schemaRef}`);
  if (!validate(res.body)) {
    throw new Error(`${method} ${pathTemplate} ${status} does not match docs/openapi.yaml: ${ajv.errorsText(validate.errors)}\n${res.text.slice(0, 800)}`);
  }
}

/** Every operation (method + path) declared in the spec. */
export function declaredOperations(): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries<Json>(spec.paths)) {
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) if (item[m]) out.push(`${m} ${path}`);
  }
  return out;
}

/** Errors of `value` against components/schemas/<name> of docs/openapi.yaml, or null when it matches. */
export function schemaErrors(name: string, value: unknown): string | null {
  const validate = ajv.getSchema(pointer('components', 'schemas', name));
  if (!validate) throw new Error(`docs/openapi.yaml has no schema ${name}`);
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

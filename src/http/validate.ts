import type { Context } from 'hono';
import { z } from 'zod';
import { HTTPException } from 'hono/http-exception';
import { AppError, BadRequest, BodyAborted } from '../ports/errors.js';

/** "session_id is required", "title: Too big…" — one readable line per problem. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `${path || 'value'} is required`;
      if (issue.code === 'unrecognized_keys') return `Unknown key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
      // A custom message that already names the field ("session_id is required") is not prefixed again.
      return path && !issue.message.startsWith(`${path} `) ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new BadRequest(describeIssues(result.error));
  return result.data;
}

/**
 * The incumbent's `require()`: a field absent, null or empty is "Missing required field(s): a, b"
 * (its clients show the text; `text` words it otherwise); the schema then checks types and sizes.
 */
export function requiring<S extends z.ZodType>(fields: string[], schema: S, text = (missing: string[]) => `Missing required field(s): ${missing.join(', ')}`) {
  // The cast: the record's output is what the schema reads; only the static input types differ.
  return z
    .record(z.string(), z.unknown())
    .superRefine((body, ctx) => {
      const missing = fields.filter((f) => body[f] === undefined || body[f] === null || body[f] === '');
      if (missing.length) ctx.addIssue({ code: 'custom', message: text(missing) });
    })
    .pipe(schema as unknown as z.ZodType<z.output<S>, Record<string, unknown>>);
}

/** The JSON body validated by `schema`; malformed JSON and non-objects are 400s. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let text: string;
  try {
    text = await c.req.text();
  } catch (err) {
    // The size limit's 413 passes; any other failure to read is the connection's (the client hung up mid-body).
    if (err instanceof AppError || err instanceof HTTPException) throw err;
    throw new BodyAborted();
  }
  let value: unknown;
  try {
    value = text.trim() ? JSON.parse(text) : {};
  } catch {
    throw new BadRequest('Request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequest('Request body must be a JSON object');
  }
  return parseWith(schema, value);
}

/** The query string validated by `schema` (each parameter's first value). */
export function queryParams<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

/** Query flags: `1`, `true`, `yes`, `on` are true; `0`, `false`, `no`, `off`, empty are false. */
export const queryFlag = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const s = v.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(s)) return true;
    if (['', '0', 'false', 'no', 'off'].includes(s)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be 1/0 or true/false' });
    return z.NEVER;
  });

/** A non-negative whole number given as a query string. */
export const queryInt = (max?: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: 'must be a whole number ≥ 0' });
        return z.NEVER;
      }
      return max === undefined ? n : Math.min(n, max);
    });

/** Body booleans: JSON true/false, and 1/0 as older clients send them. */
export const bodyFlag = z.union([z.boolean(), z.literal(1).transform(() => true), z.literal(0).transform(() => false)]);

/** A whole number from `min` to `max` given as a query string; outside the range is a 400, not a clamp. */
export const queryIntIn = (min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

/**
 * The incumbent's `require()`: a field absent, null or empty is "Missing required field(s): a, b"
 * (its clients show the text); `schema` then checks types and sizes.
 */
export function requiredFields<S extends z.ZodType>(fields: string[], schema: S) {
  // The cast: the record's output is what the schema reads; only the static input types differ.
  return z
    .record(z.string(), z.unknown())
    .superRefine((body, ctx) => {
      const missing = fields.filter((f) => body[f] === undefined || body[f] === null || body[f] === '');
      if (missing.length) ctx.addIssue({ code: 'custom', message: `Missing required field(s): ${missing.join(', ')}` });
    })
    .pipe(schema as unknown as z.ZodType<z.output<S>, Record<string, unknown>>);
}

/** Ids go into URL paths: a strict alphabet means no `..`, `/` or `?` can redirect a call elsewhere. */
import { InvalidRequestError } from '../errors.js';

const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The id, checked, ready for a path; throws InvalidRequestError `invalid_id` without any request. */
export function pathId(id: string, what: string): string {
  if (typeof id !== 'string' || !ID.test(id)) {
    throw new InvalidRequestError(`Invalid ${what} id: ${JSON.stringify(id)}`, { code: 'invalid_id', param: 'id' });
  }
  return encodeURIComponent(id);
}

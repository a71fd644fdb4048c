// A page's load with the one failure every list shares handled: a `?after=` cursor that does not
// decode (an old or edited link) answers 400 with what to do, not a server error.
import { BadCursorError } from '../../../store/index.js';
import type { ConsoleDeps, PageRequest, PageResult } from '../page.js';
import { problem } from './parts.js';

export function loadPage(
  load: (deps: ConsoleDeps, req: PageRequest) => Promise<PageResult>,
): (deps: ConsoleDeps, req: PageRequest) => Promise<PageResult> {
  return async (deps, req) => {
    try {
      return await load(deps, req);
    } catch (error) {
      if (error instanceof BadCursorError) return problem('Out-of-date page link', error.message, 400);
      throw error;
    }
  };
}

// Every console page and action; the shell's router registers whatever is in these lists.
import type { ConsoleAction, ConsolePage } from '../page.js';
import { auditCheckpointAction, auditPage } from './audit.js';
import { todayPage } from './today.js';

export const CONSOLE_PAGES: ConsolePage[] = [todayPage, auditPage];
export const CONSOLE_ACTIONS: ConsoleAction[] = [auditCheckpointAction];

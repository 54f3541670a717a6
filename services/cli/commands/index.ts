/** Every command of the CLI, in the order `ops --help` lists them. */
import type { NounSpec } from '../spec.js';
import { ciTypeIcons } from './ci-type-icons.js';
import { ciTypes } from './ci-types.js';
import { cmdbSystems } from './cmdb-systems.js';
import { events } from './events.js';
import { policies, receivers } from './notifications.js';
import { problems } from './problems.js';
import { roles } from './roles.js';
import { slaTemplates } from './sla-templates.js';
import { streams } from './streams.js';
import { tokens } from './tokens.js';
import { triggers } from './triggers.js';
import { users } from './users.js';
import { whoami } from './whoami.js';
import { workGroups } from './work-groups.js';

export const NOUNS: readonly NounSpec[] = [
  whoami,
  users,
  tokens,
  workGroups,
  roles,
  ciTypes,
  ciTypeIcons,
  cmdbSystems,
  streams,
  slaTemplates,
  triggers,
  receivers,
  policies,
  problems,
  events,
];

/** Builds the control model with every slice of the platform (each slice names itself in model.ts's PlatformSlices). */

import { CmdbSlice } from './cmdb/cmdb.slice.js';
import { IdentitySlice } from './identity/identity.slice.js';
import { CalendarFeedsSlice } from './maintenance/calendar-feeds.slice.js';
import { MaintenanceSlice } from './maintenance/maintenance.slice.js';
import { ControlModel, type PlatformModel } from './model.js';
import { NotificationsSlice } from './notifications/notifications.slice.js';
import { ProblemSummarySlice } from './problems/problem-summary.slice.js';
import { SlaReportsSlice } from './sla/sla-reports.slice.js';
import { SlaTemplatesSlice } from './sla/sla-templates.slice.js';
import { StreamsSlice } from './streams/streams.slice.js';
import { TriggersSlice } from './triggers/triggers.slice.js';

export function createControlModel(): PlatformModel {
  return new ControlModel({
    identity: new IdentitySlice(),
    cmdb: new CmdbSlice(),
    streams: new StreamsSlice(),
    maintenance: new MaintenanceSlice(),
    calendarFeeds: new CalendarFeedsSlice(),
    triggers: new TriggersSlice(),
    problems: new ProblemSummarySlice(),
    slaTemplates: new SlaTemplatesSlice(),
    slaReports: new SlaReportsSlice(),
    notifications: new NotificationsSlice(),
  });
}

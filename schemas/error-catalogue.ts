/**
 * Every error the platform answers with, in one place (issue #15): a stable machine code, the
 * kind of failure, and the message template (`{name}` is filled from the raise's parameters).
 * Kinds say what went wrong in the domain's words; only the HTTP edge (http/problem.ts) turns a
 * kind into a status. docs/errors.md is rendered from this table (`npm run docs:errors`), and a
 * test checks that the page is current and that every code here is raised somewhere.
 * Codes are part of the API: rename one only with a deprecation.
 */
export const ERROR_KINDS = [
  'bad-request',
  'validation',
  'invalid-json',
  'empty-body',
  'unauthorized',
  'forbidden',
  'not-found',
  'route-not-found',
  'method-not-allowed',
  'conflict',
  'gone',
  'payload-too-large',
  'unsupported-media-type',
  'header-fields-too-large',
  'unprocessable',
  'internal',
  'unavailable',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface CatalogueEntry {
  readonly kind: ErrorKind;
  readonly message: string;
}

export const ERROR_CATALOGUE = {
  // The HTTP layer: what any request may meet before its handler runs.
  'http.route_not_found': { kind: 'route-not-found', message: 'No route for {method} {path}' },
  'http.method_not_allowed': { kind: 'method-not-allowed', message: '{method} is not allowed on {path}' },
  'http.stopping': { kind: 'unavailable', message: 'This process is stopping and takes no new request; retry (another instance, or this one once restarted)' },
  'http.header_fields_too_large': { kind: 'header-fields-too-large', message: "The request's header fields take {bytes} bytes; the limit is {limit}" },
  'http.content_type_missing': { kind: 'unsupported-media-type', message: 'Content-Type must be {accepted}' },
  'http.content_type_unsupported': { kind: 'unsupported-media-type', message: 'Content-Type must be {accepted}, not {given}' },
  'http.charset_unsupported': { kind: 'unsupported-media-type', message: 'The body must be UTF-8, not {charset}' },
  'http.encoding_unsupported': { kind: 'unsupported-media-type', message: 'Content-Encoding {encoding} is not supported: send gzip, deflate or no encoding' },
  'http.body_too_large_declared': { kind: 'payload-too-large', message: 'The body is {declared} bytes; the limit is {limit}' },
  'http.body_too_large': { kind: 'payload-too-large', message: 'The body exceeds the limit of {limit} bytes' },
  'http.body_too_large_decoded': { kind: 'payload-too-large', message: 'The body exceeds the limit of {limit} bytes once decoded ({encoding})' },
  'http.body_not_decodable': { kind: 'bad-request', message: 'The body is not valid {encoding} data: {reason}' },
  'http.body_empty': { kind: 'empty-body', message: 'The request body is empty' },
  'http.body_not_json': { kind: 'invalid-json', message: 'The body is not valid JSON: {reason}' },
  'http.body_too_deep': { kind: 'bad-request', message: 'The body nests arrays and objects deeper than {limit} levels' },
  'http.body_invalid': { kind: 'validation', message: 'The request does not match the data model' },
  'http.query_invalid': { kind: 'validation', message: 'Invalid query parameters' },
  'http.parameter_invalid': { kind: 'bad-request', message: 'Invalid {name}: {value}' },
  'http.boolean_invalid': { kind: 'bad-request', message: 'Invalid {name}: {value}; {rule}' },
  internal: { kind: 'internal', message: 'An unexpected error occurred; it has been logged' },

  // Authentication and platform rights.
  'auth.header_missing': { kind: 'unauthorized', message: 'The Authorization header is missing; send "Authorization: Bearer <token>"' },
  'auth.header_malformed': { kind: 'unauthorized', message: 'The Authorization header must be "Bearer <token>"' },
  'auth.token_unknown': { kind: 'unauthorized', message: 'The token is not known' },
  'auth.token_revoked': { kind: 'unauthorized', message: 'The token has been revoked' },
  'auth.token_expired': { kind: 'unauthorized', message: 'The token has expired' },
  'auth.user_disabled': { kind: 'unauthorized', message: 'The token belongs to a disabled or deleted user' },
  // The problem also carries `right` and `roles` (the roles that grant it, narrowest first).
  'auth.right_missing': { kind: 'forbidden', message: 'This needs the platform right {right}, which comes with the role {roles}; ask an administrator for it' },

  // The console's sessions (DESIGN §11): a personal token exchanged for a cookie.
  'session.none': {
    kind: 'unauthorized',
    message: 'There is no session: the request has no ops_session cookie, or its session was signed out or ended long ago; sign in with a personal token',
  },
  'session.idle_expired': { kind: 'unauthorized', message: 'The session ended at {at}, after {minutes} minutes without use; sign in again' },
  'session.expired': { kind: 'unauthorized', message: 'The session reached its end at {at}; sign in again' },
  'session.csrf_missing': { kind: 'forbidden', message: 'A change made with the session cookie needs the X-CSRF-Token header, holding the csrfToken of the session' },
  'session.csrf_mismatch': { kind: 'forbidden', message: 'The X-CSRF-Token header does not match the session' },

  // The console's files, served by every API process.
  'console.file_not_found': { kind: 'not-found', message: 'The console has no file {path}' },
  'console.not_built': { kind: 'unavailable', message: 'The console is not available: {reason}; run npm run build:console and restart' },

  // Users, workgroups, roles and tokens.
  'user.not_found': { kind: 'not-found', message: 'User {id} not found' },
  'user.name_taken': { kind: 'conflict', message: 'A user named {name} already exists' },
  'user.delete_self': { kind: 'bad-request', message: 'You cannot delete your own user' },
  'work_group.not_found': { kind: 'not-found', message: 'Workgroup {id} not found' },
  'work_group.id_invalid': { kind: 'bad-request', message: 'Invalid workgroup id: {value}' },
  'work_group.id_taken': { kind: 'conflict', message: 'Workgroup {id} already exists' },
  'work_group.name_taken': { kind: 'conflict', message: 'A workgroup named {name} already exists' },
  'work_group.owns_ci': { kind: 'conflict', message: 'Workgroup {id} owns CI {ciId}; move or delete its CIs first' },
  'work_group.holds_grant': { kind: 'conflict', message: 'Workgroup {id} holds a grant on CI {ciId}; remove it first' },
  'role.name_invalid': { kind: 'bad-request', message: 'Invalid role name {name}' },
  'role.unknown': { kind: 'bad-request', message: 'Unknown role {names}' },
  'role.not_found': { kind: 'not-found', message: 'Role {name} not found' },
  'role.built_in_change': { kind: 'bad-request', message: 'Role {name} is built in and cannot be changed' },
  'role.built_in_delete': { kind: 'bad-request', message: 'Role {name} is built in and cannot be deleted' },
  'role.in_use': { kind: 'conflict', message: 'User {userId} has role {name}; take it away first' },
  'token.expiry_past': { kind: 'bad-request', message: 'expiresAt must be in the future' },
  'token.not_found': { kind: 'not-found', message: 'Token {tokenId} of user {userId} not found' },

  // CIs: existence, names, owners.
  'ci.id_invalid': { kind: 'bad-request', message: 'Invalid {what}: {value}' },
  'ci.not_found': { kind: 'not-found', message: '{what} {id} not found' },
  'ci.id_taken': { kind: 'bad-request', message: 'A CI with id {id} already exists' },
  'ci.name_missing': { kind: 'bad-request', message: 'The CI name is missing' },
  'ci.name_taken': { kind: 'bad-request', message: 'A CI named {name} already exists with the same type{seen}' },
  'ci.parent_unknown': { kind: 'bad-request', message: 'Parent CI {id} does not exist' },
  'ci.owner_missing': { kind: 'bad-request', message: 'The owner workgroup is missing (give ownerWorkGroup or a parent)' },
  'ci.owner_not_parents': { kind: 'bad-request', message: 'CI {id} belongs to the workgroup of its parent CI {parentId}; move it out of the hierarchy first' },
  'ci_type.no_default': { kind: 'bad-request', message: 'CI type not found: no default CI type is defined' },
  'ci_type.unknown': { kind: 'bad-request', message: 'CI type not found: {id}' },
  'cmdb_system.unknown': { kind: 'bad-request', message: 'CMDB system not found: {id}' },

  // CI rights (spec 2.8; docs/decisions.md "No escalation path"). Each names only the id sent.
  'ci.read_forbidden': { kind: 'forbidden', message: 'No right to view CI {id}' },
  'ci.add_forbidden': { kind: 'forbidden', message: 'No permission to add a CI to workgroup {id}' },
  'ci.add_under_forbidden': { kind: 'forbidden', message: 'No permission to add a CI under CI {id}' },
  'ci.update_forbidden': { kind: 'forbidden', message: 'Insufficient privileges to update CI {id}' },
  'ci.delete_forbidden': { kind: 'forbidden', message: 'No permission to remove CI {id}' },
  'ci.parent_forbidden': { kind: 'forbidden', message: 'Insufficient privileges on the parent CI {id}' },
  'ci.move_forbidden': { kind: 'forbidden', message: 'Insufficient privileges on CI {id}: moving a CI needs the right to change it' },
  'ci.dependent_forbidden': { kind: 'forbidden', message: 'Insufficient privileges on the dependent CI {id}' },
  'ci.influencing_forbidden': { kind: 'forbidden', message: 'Insufficient privileges on the influencing CI {id}' },
  'ci.share_forbidden': { kind: 'forbidden', message: 'Insufficient privileges to share CI {id}: only members of the workgroup that owns it may' },
  'ci.access_change_forbidden': { kind: 'forbidden', message: 'Insufficient privileges to change access to CI {id}: only members of the workgroup that owns it may' },
  'ci.give_away_not_owner': { kind: 'forbidden', message: 'Only members of the workgroup that owns CI {id} may give it to another workgroup' },
  'ci.give_away_forbidden': { kind: 'forbidden', message: 'No permission to give CI {id} to workgroup {owner}' },

  // CI hierarchy and influence links.
  'ci.link_across_work_groups': { kind: 'bad-request', message: 'CI {parentId} and CI {childId} belong to different workgroups' },
  'ci.hierarchy_cycle': { kind: 'validation', message: 'Invalid model: the hierarchy would contain a cycle' },
  'ci.not_a_child': { kind: 'not-found', message: 'CI {childId} is not a child of CI {parentId}' },
  'ci.influence_cycle': { kind: 'validation', message: 'Invalid model: the influence graph would contain a cycle' },
  'ci.influence_not_found': { kind: 'not-found', message: 'CI {influentialId} does not influence CI {dependentId}' },

  // Access models (grants).
  'grant.list_missing': { kind: 'bad-request', message: 'The grants list is missing' },
  'grant.given_twice': { kind: 'bad-request', message: 'The access rule for workgroup {workGroupId} ({shareType}) is given twice' },
  'grant.already_set': { kind: 'bad-request', message: 'The access rule for workgroup {workGroupId} ({shareType}) is already set on CI {ciId}' },
  'grant.work_group_missing': { kind: 'bad-request', message: 'The workgroup id is required' },
  'grant.id_invalid': { kind: 'bad-request', message: 'Invalid access-model id: {value}' },
  'grant.not_found': { kind: 'not-found', message: 'Access model {grantId} not found on CI {ciId}' },
  'grant.work_group_fixed': { kind: 'bad-request', message: 'Access model {grantId} is for workgroup {from}; it cannot move to workgroup {to}: remove it and add one' },

  // CI types and CMDB systems (admin).
  'reference.id_taken': { kind: 'conflict', message: '{what} {id} already exists' },
  'ci_type.not_found': { kind: 'not-found', message: 'CI type {id} not found' },
  'ci_type.name_taken': { kind: 'conflict', message: 'A CI type named {name} already exists' },
  'ci_type.is_default': { kind: 'conflict', message: 'CI type {id} is the default type; make another type default first' },
  'ci_type.in_use': { kind: 'conflict', message: 'CI {ciId} has type {id}; change or delete it first' },
  'cmdb_system.not_found': { kind: 'not-found', message: 'CMDB system {id} not found' },
  'cmdb_system.name_taken': { kind: 'conflict', message: 'A CMDB system named {name} already exists' },
  'cmdb_system.in_use': { kind: 'conflict', message: 'CI {ciId} was created on CMDB system {id}' },

  // CI type icons (admin; the image itself is public).
  'icon.not_found': { kind: 'not-found', message: 'Icon {id} not found' },
  'icon.unknown': { kind: 'bad-request', message: 'Icon not found: {id}' },
  'icon.not_png': { kind: 'bad-request', message: 'The body is not a PNG image: {reason}' },
  'icon.built_in': { kind: 'conflict', message: 'Icon {id} is built in and cannot be deleted' },
  'icon.in_use': { kind: 'conflict', message: 'CI type {typeId} has icon {id}; give it another icon first' },
  'icon.limit_reached': { kind: 'conflict', message: 'At most {limit} icons may be uploaded; delete one first' },

  // Maintenance modes.
  'maintenance.not_found': { kind: 'not-found', message: 'Maintenance mode {id} not found' },
  'maintenance.read_forbidden': { kind: 'forbidden', message: 'No permission to view maintenance mode {id}' },
  'maintenance.edit_forbidden': { kind: 'forbidden', message: 'No permission to edit maintenance mode {id}: it covers CIs you cannot read' },
  'maintenance.field_invalid': { kind: 'bad-request', message: '{field} {why}: {value}' },
  'maintenance.start_missing': { kind: 'bad-request', message: 'The start time (dateStart) is missing' },
  'maintenance.end_missing': { kind: 'bad-request', message: 'The end time (dateEnd) is missing' },
  'maintenance.end_before_start': { kind: 'bad-request', message: 'The end of the mode (dateEnd) must be after its start (dateStart)' },
  'maintenance.end_past': { kind: 'bad-request', message: 'The end of the mode (dateEnd) must be later than the current time ({now})' },
  'maintenance.start_fixed': { kind: 'bad-request', message: 'Maintenance mode {id} has already started, so its start time cannot be changed' },
  'maintenance.cis_missing': { kind: 'bad-request', message: 'The CI list (configItems) is missing' },
  'maintenance.cis_empty': { kind: 'bad-request', message: 'The CI list (configItems) is empty; a maintenance mode needs at least one CI' },
  'maintenance.ci_id_missing': { kind: 'bad-request', message: 'The CI id is missing in configItems[{index}]' },
  'maintenance.ci_id_invalid': { kind: 'bad-request', message: 'Invalid CI id in configItems[{index}]: {id}' },
  'maintenance.ci_twice': { kind: 'bad-request', message: 'CI {id} is listed twice in configItems' },
  'maintenance.depth_invalid': { kind: 'bad-request', message: 'Invalid graph depth in configItems[{index}]: {depth}' },
  'maintenance.cis_not_accessible': { kind: 'bad-request', message: 'CIs not found or not accessible: {ids}' },
  'maintenance.no_ci_accessible': { kind: 'bad-request', message: 'None of the CIs in configItems was found or is accessible' },
  'maintenance.canceled_cancel': { kind: 'bad-request', message: 'Maintenance mode {id} was already canceled, so it cannot be canceled again' },
  'maintenance.canceled_change': { kind: 'bad-request', message: 'Maintenance mode {id} was canceled, so it cannot be changed' },
  'maintenance.ended_complete': { kind: 'bad-request', message: 'Maintenance mode {id} has already ended, so it cannot be completed' },
  'maintenance.ended_change': { kind: 'bad-request', message: 'Maintenance mode {id} has already ended, so it cannot be changed' },
  'maintenance.recurrence_invalid': { kind: 'bad-request', message: 'The recurrence is not valid: {reason}' },
  'maintenance.occurrence_too_long': { kind: 'bad-request', message: 'Each occurrence would last {span}: a recurring mode may last at most {limit} ({why})' },
  'maintenance.no_occurrence': { kind: 'bad-request', message: 'The recurrence leaves no occurrence: every date of the rule is excluded' },
  'maintenance.query_invalid': { kind: 'bad-request', message: 'Invalid {name}: {value}; {why}' },
  'maintenance.filter_empty': { kind: 'bad-request', message: 'The filter is empty: give at least one of ids, dateStart, dateEnd, configItemIds' },

  // Streams and ingestion.
  'stream.not_found': { kind: 'not-found', message: 'Stream {id} not found' },
  'stream.name_taken': { kind: 'conflict', message: 'A stream named {name} already exists' },
  'stream.pending_deletion': { kind: 'conflict', message: 'Stream {id} is pending deletion; it can only be deleted' },
  'stream.pattern_invalid': { kind: 'bad-request', message: 'The text parser pattern is not accepted: it must be RE2 syntax within the pattern limits' },
  'stream.pattern_without_group': { kind: 'bad-request', message: 'The text parser pattern needs at least one named group' },
  'stream.time_zone_invalid': { kind: 'bad-request', message: 'The syslog parser timeZone {timeZone} is not an IANA time zone (e.g. Europe/Berlin)' },
  'stream_read.range_reversed': { kind: 'bad-request', message: 'from ({from}) must be before to ({to})' },
  'stream_read.range_too_long': { kind: 'bad-request', message: 'from and to are more than {days} days apart; read a longer span in several ranges' },
  'stream_read.filter_invalid': { kind: 'bad-request', message: 'Invalid filter {filter}: {reason}' },
  'stream_read.filters_too_many': { kind: 'bad-request', message: '{count} filters given; at most {limit} are taken' },
  'stream_read.cursor_invalid': { kind: 'bad-request', message: 'The cursor is not one this API gave; ask for the first page again without it' },
  'ingest.key_missing': { kind: 'unprocessable', message: 'The stream key is missing: send {how}' },
  'ingest.key_unknown': { kind: 'unprocessable', message: 'The stream key is not declared' },
  'ingest.stream_inactive': { kind: 'unprocessable', message: 'Stream {id} is not active' },
  'ingest.stream_pending_deletion': { kind: 'unprocessable', message: 'Stream {id} is pending deletion' },
  'ingest.body_unreadable': { kind: 'bad-request', message: '{reason}' },
  'ingest.no_record': { kind: 'bad-request', message: 'The body holds no record' },
  'ingest.bulk_too_many_actions': { kind: 'payload-too-large', message: 'The _bulk body holds more than {limit} actions; send them in several requests' },
  'ingest.alertmanager_version': { kind: 'bad-request', message: 'The Alertmanager payload version is {version}; this receiver reads version 4' },
  'ingest.larger_than_bus_message': { kind: 'payload-too-large', message: 'A {what} of {bytes} bytes is larger than the largest message the bus takes ({limit} bytes of records)' },
  'ingest.bus_unavailable': { kind: 'unavailable', message: 'The {what}s were not accepted: {reason}{partly}' },
  'ingest.not_accepted': { kind: 'unavailable', message: 'The {what}s were not accepted; retry{partly}' },
  'ingest.disk_low': {
    kind: 'unavailable',
    message:
      'Ingestion is paused: the data directory has {free} free, under the {limit} kept free (OPS_MIN_FREE_DISK); nothing was stored. It resumes by itself once space is freed',
  },

  // Triggers.
  'trigger.not_found': { kind: 'not-found', message: 'Trigger {id} not found' },
  'trigger.name_taken': { kind: 'conflict', message: 'A trigger named {name} already exists' },
  'trigger.references_invalid': { kind: 'validation', message: 'The trigger refers to what does not exist or cannot be used' },

  // SLA templates and reports.
  'sla_template.not_found': { kind: 'not-found', message: 'SLA template {id} not found' },
  'sla_template.unknown': { kind: 'bad-request', message: 'SLA template {id} does not exist' },
  'sla_template.read_forbidden': { kind: 'forbidden', message: 'Insufficient rights to read SLA template {id}' },
  'sla_template.name_taken': { kind: 'conflict', message: 'An SLA template named {name} already exists (id {id})' },
  'sla_template.in_multi': { kind: 'conflict', message: 'SLA template {id} is part of the Multi {templates}; remove it there first' },
  'sla_template.owner_in_use': { kind: 'conflict', message: '{ownerType} {ownerId} owns SLA template {id}; give it another owner or delete it first' },
  'sla_template.type_fixed': { kind: 'validation', message: 'The type of an SLA template cannot change' },
  'sla_template.invalid': { kind: 'validation', message: 'The SLA template is not valid: {path} {reason}' },
  'sla_report.id_invalid': { kind: 'bad-request', message: 'Invalid report id: {id}' },
  'sla_report.not_found': { kind: 'not-found', message: 'Custom SLA report {id} not found' },
  'sla_report.read_forbidden': { kind: 'forbidden', message: 'Insufficient rights to read custom SLA report {id}' },
  'sla_report.range_invalid': { kind: 'bad-request', message: 'range.end must be later than range.start' },
  'sla_report.pending': { kind: 'bad-request', message: 'Custom SLA report {id} is not ready yet; poll GET ordered/{id} until its status is Ok' },
  'sla_report.failed': { kind: 'bad-request', message: 'Custom SLA report {id} failed and has nothing to export: {error}' },
  'sla_report.timeline_single_only': {
    kind: 'bad-request',
    message: 'Custom SLA report {id} is of a Multi template: its timeline is per CI, so ask it of a report of one of the Single templates',
  },
  'sla_report.ci_not_in_report': { kind: 'not-found', message: 'CI {ciId} is not one of the CIs of custom SLA report {id}' },
  'sla_report.inputs_changed': {
    kind: 'conflict',
    message: 'The template or a maintenance mode of custom SLA report {id} changed after it was calculated, so its timeline would not add up to it; order the report again',
  },
  'sla_live.loading': {
    kind: 'unavailable',
    message: 'The live SLA figures are still being read from the problems of the last 31 days ({reason}); retry shortly, or ask without includeSla',
  },
  'sla_report.expired': { kind: 'gone', message: 'Custom SLA report {id} was created more than a day ago; its results are gone. Order it again.' },

  // Problems and what operators do with them (issue #30).
  'problem.query_invalid': { kind: 'bad-request', message: 'The list parameter {name} cannot be {value}: {rule}' },
  'problem.cursor_invalid': { kind: 'bad-request', message: 'The cursor is not one this list gave (or it belongs to another sort): ask for the first page again' },
  'problem.id_invalid': { kind: 'bad-request', message: 'Invalid problem id: {value}; it is a UUID' },
  'problem.not_found': { kind: 'not-found', message: 'Problem {id} not found' },
  'problem.write_forbidden': { kind: 'forbidden', message: 'Insufficient privileges on CI {ciId}: acting on its problems needs the right to change it' },
  'problem.closed': { kind: 'conflict', message: 'Problem {id} is closed: only an open problem can be acknowledged, unacknowledged or resolved' },
  'problem.bulk_too_many': { kind: 'bad-request', message: 'The filter matches {matched} open problems; a bulk acknowledgement takes at most {limit}: narrow it' },
  'problem.action_pending': { kind: 'unavailable', message: 'The action was sent to the problem stage but not confirmed in time; read the problem before sending it again' },
  'problem.bus_unavailable': { kind: 'unavailable', message: 'The action could not be handed to the problem stage: {reason}' },

  // Calendar feeds of maintenance modes (issue #17).
  'calendar_feed.token_missing': { kind: 'unauthorized', message: 'The feedToken query parameter is missing; subscribe with the url given when the feed was created' },
  'calendar_feed.token_unknown': { kind: 'unauthorized', message: 'The feed token is not known' },
  'calendar_feed.revoked': { kind: 'unauthorized', message: 'Calendar feed {id} has been revoked' },
  'calendar_feed.not_found': { kind: 'not-found', message: 'Calendar feed {id} not found' },
  'calendar_feed.too_many': { kind: 'conflict', message: 'You have {limit} active calendar feeds, the most allowed; revoke one first' },

  // Notification receivers and policies (issue #31, services/control-plane/notifications/). No
  // message quotes a secret or a URL: they may hold one.
  'notification.work_group_forbidden': {
    kind: 'forbidden',
    message: 'Only members of workgroup {id} (with the notifications-writer role) may manage its notification receivers and policies',
  },
  'notification.work_group_in_use': { kind: 'conflict', message: 'Workgroup {id} owns notification {what} {itemId}; delete it or give it to another workgroup first' },
  'notification_receiver.not_found': { kind: 'not-found', message: 'Notification receiver {id} not found' },
  'notification_receiver.forbidden': { kind: 'forbidden', message: 'Notification receiver {id} belongs to a workgroup you are not a member of' },
  'notification_receiver.invalid': { kind: 'validation', message: 'The notification receiver is not valid' },
  'notification_receiver.type_fixed': { kind: 'validation', message: 'The type of a notification receiver cannot change; create a new receiver instead' },
  'notification_receiver.name_taken': { kind: 'conflict', message: 'Workgroup {workGroupId} already has a notification receiver named {name} (id {id})' },
  'notification_receiver.in_use': { kind: 'conflict', message: 'Notification receiver {id} is a receiver of policy {policyId}; take it out of the policy first' },
  'notification_policy.not_found': { kind: 'not-found', message: 'Notification policy {id} not found' },
  'notification_policy.forbidden': { kind: 'forbidden', message: 'Notification policy {id} belongs to a workgroup you are not a member of' },
  'notification_policy.invalid': { kind: 'validation', message: 'The notification policy is not valid' },
  'notification_policy.name_taken': { kind: 'conflict', message: 'Workgroup {workGroupId} already has a notification policy named {name} (id {id})' },
  'notification_delivery.not_found': { kind: 'not-found', message: 'Notification receiver {receiverId} has no delivery {deliveryId}' },
  'notification_delivery.cursor_invalid': { kind: 'bad-request', message: 'The cursor is not one this delivery log gave; ask for the first page again without it' },
  'notification_delivery.replays_pending': {
    kind: 'conflict',
    message: 'Notification receiver {id} already has {limit} replays waiting for the dispatcher; ask again once they are sent',
  },

  // Outbound requests of notifications (issue #31, services/runtime/outbound/). Messages name the
  // origin only: never a path, query or user info, which may hold a receiver's secret.
  'notify.url_invalid': { kind: 'bad-request', message: 'The {what} is not an absolute URL' },
  'notify.scheme_refused': { kind: 'bad-request', message: 'The {what} uses {scheme}; only http: and https: are allowed' },
  'notify.address_refused': {
    kind: 'bad-request',
    message: 'The address {address} of {host} is refused by the {rule} rule ({network}){hop}; requests go there only if OPS_NOTIFY_ALLOW_NETWORKS lists it',
  },
  'notify.host_not_found': { kind: 'bad-request', message: 'The host {host} does not resolve ({reason})' },
  'notify.host_unresolved': { kind: 'unavailable', message: 'The host {host} could not be resolved ({reason}){hop}; retry later' },
  'notify.too_many_redirects': { kind: 'bad-request', message: '{method} {origin} was redirected more than {limit} times' },
  'notify.timeout': { kind: 'unavailable', message: '{method} {origin} did not complete within {ms} ms' },
  'notify.connection_failed': { kind: 'unavailable', message: '{method} {origin} failed: {reason}' },

  // The platform itself.
  'engine.unavailable': { kind: 'unavailable', message: 'The {engine} did not answer: {reason}' },
  'engine.rejected': { kind: 'unprocessable', message: 'The {engine} refused the work as given: {reason}' },
  'control_plane.busy': { kind: 'unavailable', message: 'The control plane is too busy to take this change now; retry' },
  'storage.full': { kind: 'unavailable', message: 'The {engine} store is full and took nothing of this request ({reason}); retry once space is freed' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

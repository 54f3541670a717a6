/**
 * The built-in CI type icons: simple 24×24 SVGs beside this file, drawn for this platform. Their
 * ids are stable (a CI type keeps the id in the journal): add new icons at the end with the next
 * id, never renumber or reuse one. Uploaded icons take ids from FIRST_UPLOADED_ICON_ID on.
 */
export interface BuiltInIcon {
  id: number;
  name: string;
  /** The SVG beside this file. */
  file: string;
}

export const BUILT_IN_ICONS: readonly BuiltInIcon[] = [
  { id: 1, name: 'Generic', file: 'generic.svg' },
  { id: 2, name: 'Server', file: 'server.svg' },
  { id: 3, name: 'Database', file: 'database.svg' },
  { id: 4, name: 'Network', file: 'network.svg' },
  { id: 5, name: 'Application', file: 'application.svg' },
  { id: 6, name: 'Service', file: 'service.svg' },
  { id: 7, name: 'Storage', file: 'storage.svg' },
  { id: 8, name: 'Cloud', file: 'cloud.svg' },
  { id: 9, name: 'Container', file: 'container.svg' },
  { id: 10, name: 'Website', file: 'website.svg' },
  { id: 11, name: 'User group', file: 'user-group.svg' },
  { id: 12, name: 'Workstation', file: 'workstation.svg' },
  { id: 13, name: 'Firewall', file: 'firewall.svg' },
  { id: 14, name: 'Load balancer', file: 'load-balancer.svg' },
  { id: 15, name: 'Message queue', file: 'message-queue.svg' },
];

/** Ids below this are the built-in set's (room to grow); uploads are numbered from here. */
export const FIRST_UPLOADED_ICON_ID = 1000;

const byId = new Map(BUILT_IN_ICONS.map((icon) => [icon.id, icon]));
export const builtInIcon = (id: number): BuiltInIcon | undefined => byId.get(id);

/** The control model with every slice of the platform. */
import { ControlModel, type Command } from './model.js';
import { IdentitySlice } from './identity/identity.slice.js';

export type PlatformModel = ControlModel<{ identity: IdentitySlice }>;
export type PlatformCommand<R> = Command<R, PlatformModel>;

export function createControlModel(): PlatformModel {
  return new ControlModel({ identity: new IdentitySlice() });
}

/** `ops whoami`: the user and token the CLI calls with (admin API /me, any authenticated user). */
import { one } from '../render.js';
import { type NounSpec, type Render, send } from '../spec.js';
import { isRecord, keyValue } from '../table.js';

/** `/me` answers { user, token }: both as key/value lines, the token's prefixed. */
const renderMe: Render = (data) => {
  if (!isRecord(data) || !isRecord(data['user']) || !isRecord(data['token'])) return one()(data, { args: {}, options: {} });
  const token = Object.fromEntries(
    Object.entries(data['token'])
      .filter(([k]) => k !== 'userId')
      .map(([k, v]) => [`token.${k}`, v]),
  );
  return keyValue({ ...data['user'], ...token });
};

export const whoami: NounSpec = {
  name: 'whoami',
  summary: 'Show the user and token you are calling with',
  commands: [{ summary: 'Show the user and token you are calling with', prepare: () => send('GET', '/me'), render: renderMe }],
};

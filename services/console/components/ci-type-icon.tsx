/**
 * A CI's type as a small picture: the type's icon (`<img alt="">`: the type's name is said
 * beside it) or, for a type without one, a neutral glyph. The icons come with the CI types
 * (cmdb-reference.ts), read once and shared by every row.
 */
import { typeIcons } from './cmdb-reference.js';

export { loadCiTypes as loadTypeIcons } from './cmdb-reference.js';

export function CiTypeIcon({ typeId, size = 16 }: { typeId: number; size?: number }) {
  const url = typeIcons.value.get(typeId);
  if (url) return <img class="ci-icon" src={url} alt="" width={size} height={size} loading="lazy" decoding="async" />;
  return (
    <span class="ci-icon ci-glyph" aria-hidden="true">
      ◇
    </span>
  );
}

import { showTime } from '../app/time.js';

/** An instant as the console shows it, with the UTC instant on hover. */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={new Date(iso).toISOString()}>
      {showTime(iso)}
    </time>
  );
}

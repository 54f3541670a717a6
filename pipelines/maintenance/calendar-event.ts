/** One maintenance mode as the calendar file shows it: what calendar-ics.ts renders, and its VEVENT pieces take. */
import type { RecurrenceInput } from './recurrence.js';

export interface CalendarEvent {
  uid: string;
  title: string;
  description?: string;
  /** The (first) occurrence, epoch ms. */
  start: number;
  end: number;
  recurrence?: RecurrenceInput;
  canceled?: boolean;
  updatedAt: number;
  url?: string;
}

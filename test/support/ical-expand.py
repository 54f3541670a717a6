"""Expands an iCalendar feed as a calendar client built on python-icalendar and dateutil does.

Usage: /usr/bin/python3 ical-expand.py FROM TO < feed.ics
FROM and TO are UTC instants (ISO 8601, e.g. 2027-01-01T00:00:00Z). Prints one JSON object:
  {"events": {uid: [[startISO, endISO], ...]}, "unmatched": [[uid, recurrenceIdISO], ...]}
with every occurrence meeting [FROM, TO), in UTC, ascending; "unmatched" lists the
RECURRENCE-ID overrides that name no occurrence of their series (a client would then show the
series' own reading of that night).

The reading is python-icalendar's: every DATE-TIME with a TZID is decoded by icalendar itself
(pytz's localize, so a repeated wall time is its later instant and a skipped one takes the
offset before the gap), and the wall times the RRULE generates are resolved the same way, so a
RECURRENCE-ID meets the occurrence it names. The RRULE is expanded by dateutil.rrule.rrulestr
over wall times (the zone's offset changes, not DTSTART's offset, apply to each occurrence);
UNTIL, in UTC, is compared with each occurrence's resolved start (dateutil refuses a UTC UNTIL
beside a floating DTSTART). Each occurrence lasts the master's exact duration (DTEND minus
DTSTART as instants, or DURATION), as RFC 5545 says; EXDATEs remove the occurrence starting at
that instant; RDATEs add one; an override (same UID, RECURRENCE-ID) replaces the occurrence its
RECURRENCE-ID names with its own DTSTART and DTEND.
"""

import json
import re
import sys
from datetime import datetime, timedelta, timezone

from dateutil.rrule import rrulestr
from icalendar import Calendar

UTC = timezone.utc


def parse_instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def iso(value):
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def instants(component, name):
    """The instants of every value of a (possibly repeated) DATE-TIME list property."""
    out = []
    props = component.get(name)
    if props is None:
        return out
    for prop in props if isinstance(props, list) else [props]:
        for value in prop.dts:
            out.append(value.dt.astimezone(UTC))
    return out


def resolver(dtstart):
    """Resolves a floating wall time as icalendar resolved DTSTART (pytz localize, or UTC)."""
    tzinfo = dtstart.tzinfo
    if hasattr(tzinfo, "localize"):
        return lambda wall: tzinfo.localize(wall).astimezone(UTC)
    return lambda wall: wall.replace(tzinfo=tzinfo).astimezone(UTC)


def expand(master, overrides, start, end):
    dtstart = master.decoded("DTSTART")
    if not isinstance(dtstart, datetime) or dtstart.tzinfo is None:
        raise ValueError("the feed's events are timed, with a zone or in UTC")
    first = dtstart.astimezone(UTC)
    if "DTEND" in master:
        duration = master.decoded("DTEND").astimezone(UTC) - first
    else:
        duration = master.decoded("DURATION")

    starts = set()
    if "RRULE" in master:
        rule = master["RRULE"].to_ical().decode()
        until = None
        match = re.search(r"UNTIL=([0-9TZ]+)", rule)
        if match:
            until = datetime.strptime(match.group(1), "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
            rule = re.sub(r";?UNTIL=[0-9TZ]+", "", rule).lstrip(";")
        resolve = resolver(dtstart)
        wall_start = dtstart.replace(tzinfo=None)
        # Wall times from two days before the range, less the duration, to two days after it.
        after = (start - duration - timedelta(days=2)).replace(tzinfo=None)
        before = (end + timedelta(days=2)).replace(tzinfo=None)
        for wall in rrulestr(rule, dtstart=wall_start).between(max(after, wall_start), before, inc=True):
            instant = resolve(wall)
            if until is not None and instant > until:
                break
            starts.add(instant)
    starts.add(first)
    starts.update(instants(master, "RDATE"))
    starts.difference_update(instants(master, "EXDATE"))

    occurrences = {s: (s, s + duration) for s in starts}
    unmatched = []
    for override in overrides:
        rid = override.decoded("RECURRENCE-ID").astimezone(UTC)
        if rid not in occurrences:
            # Only those the expansion could have met (the others name nights outside the range).
            if start - timedelta(days=2) <= rid < end:
                unmatched.append(iso(rid))
            continue
        o_start = override.decoded("DTSTART").astimezone(UTC)
        o_end = override.decoded("DTEND").astimezone(UTC) if "DTEND" in override else o_start + duration
        occurrences[rid] = (o_start, o_end)
    kept = sorted(o for o in occurrences.values() if o[0] < end and o[1] > start)
    return [[iso(s), iso(e)] for s, e in kept], unmatched


def main():
    start, end = parse_instant(sys.argv[1]), parse_instant(sys.argv[2])
    calendar = Calendar.from_ical(sys.stdin.read())
    masters, overrides = {}, {}
    for event in calendar.walk("VEVENT"):
        uid = str(event["UID"])
        if "RECURRENCE-ID" in event:
            overrides.setdefault(uid, []).append(event)
        else:
            masters[uid] = event
    events, unmatched = {}, []
    for uid, master in masters.items():
        events[uid], missed = expand(master, overrides.get(uid, []), start, end)
        unmatched.extend([uid, rid] for rid in missed)
    unmatched.extend([uid, "no master"] for uid in overrides if uid not in masters)
    json.dump({"events": events, "unmatched": unmatched}, sys.stdout)


if __name__ == "__main__":
    main()

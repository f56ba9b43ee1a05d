#!/usr/bin/env python3
"""Writes the three exports of this folder from the bundled week: its first 40 users in popsim's
words (words.csv), then the same rows as a Segment track export, Firebase from BigQuery (local time
+01:00, no zone) and the popup service's JSON Lines log, each with the events such an export
carries besides (an app open, engagement, heartbeats) that the mapping leaves out.

Usage: python3 Examples/replay/exports/make.py   (from the repository's root; standard library only)
"""
import csv
import datetime
import io
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
WEEK = os.path.join(HERE, "..", "week.csv")
USERS = 40

SEGMENT = {"enqueue": "Popup Requested", "shown": "Popup Viewed", "dismissed": "Popup Dismissed",
           "dropped": "Popup Dropped", "clear": "Application Backgrounded"}
FIREBASE = {"enqueue": "popup_requested", "shown": "popup_impression", "dismissed": "popup_dismiss",
            "dropped": "popup_discard", "clear": "app_background"}
SERVER = {"enqueue": "popup.enqueue", "shown": "popup.display", "dismissed": "popup.close",
          "dropped": "popup.drop", "clear": "app.pause"}
SERVER_POPUPS = {"upgrade": "upgrade_v2", "permission": "push_permission", "rate": "rate_us",
                 "campaign": "promo_banner", "guide": "cart_guide"}


def iso(ms, offset_hours=0, zone=True):
    t = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=ms + offset_hours * 3_600_000)
    text = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}"
    return text + "Z" if zone else text.replace("T", " ")


def rows():
    with open(WEEK, newline="") as f:
        week = list(csv.reader(f))[1:]
    users = []
    for r in week:
        if r[0] not in users:
            users.append(r[0])
    chosen = set(users[:USERS])
    return [r for r in week if r[0] in chosen]


def screen(r):
    return r[4][len("screen="):] if r[2] == "set" and r[4].startswith("screen=") else None


def write(name, text):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        f.write(text)


def words(rs):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["user", "time", "action", "popup", "value"])
    w.writerows(rs)
    return out.getvalue()


def segment(rs):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["anonymous_id", "timestamp", "event", "properties.popup", "properties.label", "context.app.version"])
    seen = set()
    for user, t, action, popup, value in rs:
        ts = iso(int(t))
        if user not in seen:
            seen.add(user)
            w.writerow([user, ts, "Application Opened", "", "", "4.2.0"])
        s = screen([user, t, action, popup, value])
        if s is not None:
            w.writerow([user, ts, "Screen Viewed", "", s, "4.2.0"])
        else:
            w.writerow([user, ts, SEGMENT[action], popup, value, "4.2.0"])
    return out.getvalue()


def firebase(rs):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["event_date", "event_time", "event_name", "user_pseudo_id", "popup_id", "label", "platform"])
    seen = set()
    for user, t, action, popup, value in rs:
        local = iso(int(t), 1, zone=False)
        date = local[:10].replace("-", "")
        if user not in seen:
            seen.add(user)
            w.writerow([date, local, "session_start", user, "", "", "ANDROID"])
        s = screen([user, t, action, popup, value])
        if s is not None:
            w.writerow([date, local, "screen_view", user, "", s, "ANDROID"])
            continue
        w.writerow([date, local, FIREBASE[action], user, popup, value, "ANDROID"])
        if action == "dismissed":
            w.writerow([date, local, "user_engagement", user, "", "", "ANDROID"])
    return out.getvalue()


def server(rs):
    lines = []
    for user, t, action, popup, value in rs:
        row = {"ts": iso(int(t)), "uid": user}
        s = screen([user, t, action, popup, value])
        if s is not None:
            row.update({"type": "nav", "detail": s})
        else:
            row["type"] = SERVER[action]
            if popup:
                row["popup"] = SERVER_POPUPS.get(popup, popup)
            if value:
                row["detail"] = value
        lines.append(json.dumps(row))
        if action == "shown":
            lines.append(json.dumps({"ts": row["ts"], "uid": user, "type": "heartbeat"}))
    return "".join(line + "\n" for line in lines)


def main():
    rs = rows()
    write("words.csv", words(rs))
    write("segment.csv", segment(rs))
    write("firebase.csv", firebase(rs))
    write("server.jsonl", server(rs))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""notistack v3 as a popsim plug-in: the built-in strategy `notistack`, reimplemented in Python.

Standard library only. popsim runs it with `--strategy exec:Examples/plugins/notistack.py` and
talks to it as docs/plugin-protocol.md says: the handshake first, then one JSON line per
happening on stdin, one JSON line of decisions back on stdout. A test runs every bundled
scenario under this plug-in and under the built-in strategy and gets byte-identical timelines.

The rules (peers.md §3.1, iamhosseindhv/notistack v3.0.2): `slots` snacks on screen (a snack holds
its slot until gone); when they are full the oldest non-persistent snack is evicted, one at a
time (one still entering is flagged and closes when its entrance ends); `overflow` wait or cut
instead; `dedupe` on ignores a snack whose dedupeKey (else name) is queued or on screen; timers
from show, held timers restart with half their duration; remove closes one snack, clear closes
the screen and keeps the queue.
"""
import json
import sys

HELLO = {
    "popsimPlugin": 1,
    "name": "notistack-py",
    "summary": "notistack in Python: maxSnack slots; when full the oldest non-persistent snack is evicted",
    "options": [
        {"name": "slots", "summary": "snacks on screen at once (maxSnack)", "default": 3, "minimum": 1},
        {"name": "duration", "summary": "display time of a popup without its own duration, ms", "default": 5000, "minimum": 1},
        {"name": "dedupe", "summary": "ignore a snack whose key is queued or on screen", "choices": ["on", "off"], "default": "off"},
        {"name": "overflow", "summary": "full slots: evict the oldest, wait, or cut it at once",
         "choices": ["evict", "wait", "cut"], "default": "evict"},
        {"name": "showMs", "summary": "present animation, ms", "default": 225, "minimum": 0},
        {"name": "hideMs", "summary": "dismiss animation, ms", "default": 495, "minimum": 0},
        {"name": "navMs", "summary": "push/pop transition, ms", "default": 0, "minimum": 0},
    ],
    "fields": ["dedupeKey"],
    "actions": ["remove", "clear", "pauseTimers", "resumeTimers"],
    "buttonActions": "at-response",
    "timerAnchor": "show",
    "handoff": "after-gone",
    "skip": ["idle", "stateChanged", "trigger", "suspend", "resume"],
    "persistent": True,  # each start begins afresh, so one process may serve many runs
    # Every enqueueSnackbar is a new snack: a popup requested again while on screen or queued
    # comes as an instance of its own ("Saved#2", with "instanceOf": "Saved").
    "instances": "per-request",
}


class Notistack:
    def __init__(self, start):
        options = start["options"]
        self.slots = options["slots"]
        self.dedupe = options["dedupe"] == "on"
        self.overflow = options["overflow"]
        self.popups = {p["name"]: p for p in start["popups"]}
        self.order = [p["name"] for p in start["popups"]]
        self.queue = []     # waiting snacks, oldest first
        self.snacks = []    # on screen, oldest first, leaving ones until gone
        self.leaving = []
        self.flagged = []
        self.held = set()
        # The engine's view of each popup: hidden, presenting, shown or hiding (what popsim's
        # world shows while a happening is handled: this reply's decisions not yet applied).
        self.phase = {name: "hidden" for name in self.order}
        self.base = {}      # instance -> the file's popup it copies

    def dedupe_id(self, name):
        return self.popups[name].get("dedupeKey", self.base.get(name, name))

    def add_instance(self, name, of):
        if name not in self.popups:
            self.popups[name] = dict(self.popups[of], name=name)
            self.order.append(name)
            self.phase[name] = "hidden"
            self.base[name] = of

    def handle(self, message):
        self.out = []
        kind, p = message["happening"], message.get("popup")
        if kind == "enqueued":
            if "instanceOf" in message:
                self.add_instance(p, message["instanceOf"])
            if self.is_duplicate(p):
                self.out.append({"drop": p, "reason": "duplicate"})
            else:
                self.queue.append(p)
                self.flow()
        elif kind == "shown":
            self.phase[p] = "shown"
            if p in self.flagged:
                self.flagged.remove(p)
                self.close(p, "evicted")
        elif kind == "dismissing":
            self.phase[p] = "hiding"
            self.leaving.append(p)
            self.flagged = [q for q in self.flagged if q != p]
        elif kind == "gone":
            self.phase[p] = "hidden"
            self.snacks = [q for q in self.snacks if q != p]
            self.leaving = [q for q in self.leaving if q != p]
            self.flagged = [q for q in self.flagged if q != p]
            self.flow()
        elif kind == "remove":
            # Every snack of p, its instances too: queued ones in queue order, then those on
            # screen, oldest first.
            mine = [q for q in self.queue if self.base.get(q, q) == p]
            for q in mine:
                self.out.append({"drop": q, "reason": "removed"})
            self.queue = [q for q in self.queue if q not in mine]
            for q in list(self.snacks):
                if self.base.get(q, q) == p and q not in self.leaving:
                    self.close(q, "removed")
        elif kind == "clear":
            for q in list(self.snacks):
                if q not in self.leaving:
                    self.close(q, "cleared")
        elif kind == "pauseTimers":
            for q in self.snacks:
                if self.targets(message, q) and self.staying(q) and self.popups[q]["duration"] is not None:
                    self.held.add(q)
                    self.out.append({"stopTimer": q})
        elif kind == "resumeTimers":
            for q in self.order:
                if q in self.held and self.targets(message, q):
                    self.held.discard(q)
                    duration = self.popups[q]["duration"]
                    if self.staying(q) and duration is not None:
                        self.out.append({"restartTimer": q, "ms": duration // 2})
        reply = {"decisions": self.out}
        if kind == "finished":
            reply["pending"] = self.queue
        self.apply(self.out)
        return reply

    def targets(self, message, name):
        return message.get("all", False) or message.get("popup") == name

    def staying(self, name):
        return self.phase[name] in ("presenting", "shown")

    def is_duplicate(self, name):
        if not self.dedupe:
            return False
        key = self.dedupe_id(name)
        return any(self.dedupe_id(q) == key for q in self.queue + self.snacks)

    def flow(self):
        while True:
            while len(self.snacks) < self.slots:
                waiting = [q for q in self.queue if q not in self.snacks]
                if not waiting:
                    break
                self.queue.remove(waiting[0])
                self.snacks.append(waiting[0])
                self.out.append({"show": waiting[0]})
            if not self.queue or len(self.snacks) < self.slots:
                return
            if self.overflow == "wait":
                return
            if self.overflow == "cut":
                victims = [q for q in self.snacks if q not in self.leaving]
                if not victims:
                    return
                victim = victims[0]
                self.snacks.remove(victim)
                self.flagged = [q for q in self.flagged if q != victim]
                self.out.append({"hide": victim, "reason": "evicted", "ms": 0})
                continue
            return self.evict_oldest()

    def evict_oldest(self):
        if self.leaving or self.flagged or not self.snacks:
            return
        timed = [q for q in self.snacks if self.popups[q]["duration"] is not None]
        victim = timed[0] if timed else self.snacks[0]
        if self.phase[victim] != "shown":   # still entering, or shown in this very reply
            self.flagged.append(victim)
        else:
            self.close(victim, "evicted")

    def close(self, name, reason):
        self.leaving.append(name)
        self.flagged = [q for q in self.flagged if q != name]
        self.out.append({"hide": name, "reason": reason})

    def apply(self, decisions):
        """What popsim does with the decisions, as far as the phases go."""
        for d in decisions:
            if "show" in d:
                self.phase[d["show"]] = "shown" if self.popups[d["show"]]["showMs"] == 0 else "presenting"
            elif "hide" in d:
                ms = d.get("ms", self.popups[d["hide"]]["hideMs"])
                self.phase[d["hide"]] = "hidden" if ms == 0 else "hiding"


def main():
    print(json.dumps(HELLO), flush=True)
    strategy = None
    for line in sys.stdin:
        message = json.loads(line)
        if "start" in message:
            strategy = Notistack(message["start"])
            reply = {}
        else:
            reply = strategy.handle(message)
            reply["seq"] = message["seq"]  # optional: lets popsim catch a reply out of step
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

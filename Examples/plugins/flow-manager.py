#!/usr/bin/env python3
"""A team's own popup manager as a popsim plug-in: seed 004's wish-list flow, with its bug fixed.

Standard library only. Run it with `--strategy exec:Examples/plugins/flow-manager.py`; the
protocol is in docs/plugin-protocol.md.

The team's rules:
- one queue per `key` (popups without one share the key "default"), highest `priority` first
  (unset is 100), oldest request first among equals; one popup on screen;
- the next popup is chosen when the app goes idle, not when the last one is dismissed, so a step
  that a button enqueues (the wish editor after "confirm") is already there to be chosen;
- among the heads of the queues the highest priority shows, the oldest request first among
  equals; a head whose `when` fails waits for the state to change;
- `remove` takes a popup back; `clear` empties every queue.
QHHeapManager (the built-in `keyed`) shows the next head at the dismissal itself, so the share
guide that arrived with the review result jumps ahead of the editor the user asked for.
"""
import json
import sys

HELLO = {
    "popsimPlugin": 1,
    "name": "flow-manager",
    "summary": "a team's flow manager: a queue per key, the next chosen at idle by priority",
    "fields": ["key", "priority", "when"],
    "actions": ["remove", "clear"],
    "persistent": True,  # a start begins afresh: one process may serve many runs
}


class FlowManager:
    def __init__(self, start):
        self.popups = {p["name"]: p for p in start["popups"]}
        self.holds = set(start["holds"])
        self.queues = {}     # key -> [(-priority, arrival, name)], best first
        self.arrivals = 0
        self.on_screen = None

    def key(self, name):
        return self.popups[name].get("key", "default")

    def priority(self, name):
        return self.popups[name].get("priority", 100)

    def allowed(self, name):
        return "when" not in self.popups[name] or name in self.holds

    def handle(self, message):
        kind, p = message["happening"], message.get("popup")
        out = []
        if kind == "enqueued":
            queue = self.queues.setdefault(self.key(p), [])
            queue.append((-self.priority(p), self.arrivals, p))
            queue.sort()
            self.arrivals += 1
        elif kind == "stateChanged":
            self.holds = set(message["holds"])
        elif kind == "gone" and p == self.on_screen:
            self.on_screen = None
        elif kind == "remove":
            for queue in self.queues.values():
                out += [{"drop": name, "reason": "removed"} for _, _, name in queue if name == p]
                queue[:] = [entry for entry in queue if entry[2] != p]
            if p == self.on_screen:
                out.append({"hide": p, "reason": "removed"})
        elif kind == "clear":
            for queue in self.queues.values():
                out += [{"drop": name, "reason": "cleared"} for _, _, name in queue]
                queue.clear()
        elif kind == "idle" and self.on_screen is None:
            heads = [queue[0] for queue in self.queues.values() if queue and self.allowed(queue[0][2])]
            if heads:
                _, _, name = min(heads)
                self.queues[self.key(name)].pop(0)
                self.on_screen = name
                out.append({"show": name})
        reply = {"decisions": out}
        if kind == "finished":
            waiting = sorted((arrival, name) for queue in self.queues.values() for _, arrival, name in queue)
            reply["pending"] = [name for _, name in waiting]
        return reply


def main():
    print(json.dumps(HELLO), flush=True)
    manager = None
    for line in sys.stdin:
        message = json.loads(line)
        if "start" in message:
            manager = FlowManager(message["start"])
            reply = {}
        else:
            reply = manager.handle(message)
            if "seq" in message:
                reply["seq"] = message["seq"]  # optional: lets popsim catch a reply out of step
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()

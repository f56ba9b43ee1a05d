import Testing
@testable import PopsimCore
import PopsimTestSupport

/// Issue 20, part 1: every knob of the `policy` strategy, each on a small scenario with its whole
/// timeline (checked by hand against the knob's rule in docs/policy.md).
@Suite("policy: each knob's timeline")
struct PolicyStrategyTests {
    static let two = """
{"popsim": 1, "name": "two", "strategy": "policy",
 "popups": {"A": {"duration": 1000}, "B": {"duration": 1000, "level": "high", "priority": 50}, "C": {"duration": 1000, "priority": 2000}},
 "events": [{"at": 0, "enqueue": "A"}, {"at": 300, "enqueue": "B"}, {"at": 400, "enqueue": "C"}]}
"""

    static let preempt = """
{
  "popsim": 1,
  "name": "preempt and return",
  "strategy": "policy",
  "options": {"order": "priority+fifo", "busy": "preempt", "busyFor": "higher", "returnTimer": "resume", "showMs": 100, "hideMs": 100},
  "popups": {
    "banner": {"duration": 3000},
    "upgrade": {"priority": "high", "duration": 1000},
    "tip": {"priority": "low", "duration": 500}
  },
  "events": [
    {"at": 0, "enqueue": "banner"},
    {"at": 1100, "enqueue": "upgrade"},
    {"at": 1200, "enqueue": "tip"}
  ]
}
"""

    static let three = """
{"popsim": 1, "name": "three", "strategy": "policy",
 "state": {"screen": "home"},
 "popups": {"A": {"duration": 1000}, "B": {"duration": 1000, "when": "screen == 'shop'"}, "C": {"duration": 1000, "dedupeKey": "k"}, "D": {"duration": 1000, "dedupeKey": "k"}},
 "events": [{"at": 0, "enqueue": ["A", "B", "C", "D"]}, {"at": 100, "enqueue": "A"}, {"at": 2500, "set": {"screen": "shop"}}]}
"""

    static let four = """
{"popsim": 1, "name": "four", "strategy": "policy",
 "popups": {"A": {"duration": 1000}, "B": {"duration": 1000}},
 "events": [{"at": 0, "enqueue": "A"}, {"at": 200, "suspend": true}, {"at": 300, "pauseTimers": true}, {"at": 400, "enqueue": "B"}, {"at": 800, "resumeTimers": true}, {"at": 2000, "resume": true}, {"at": 2100, "remove": "B"}]}
"""

    static let perPopup = """
    {"popsim": 1, "name": "per popup", "strategy": "policy",
     "popups": {"A": {"duration": 1000}, "B": {"duration": 1000, "arrival": "queue"}, "C": {"duration": 1000, "arrival": "replace"}},
     "events": [{"at": 0, "enqueue": "A"}, {"at": 200, "enqueue": "B"}, {"at": 400, "enqueue": "C"}]}
    """

    struct Case: Sendable, CustomTestStringConvertible {
        var scenario: String
        var options: [String]
        var expected: String
        var testDescription: String { options.joined(separator: " ") }
    }

    static let cases: [Case] = [
        // B (arrival queue) waits; C (arrival replace) takes the screen from A.
        Case(scenario: perPopup, options: ["busy=replace", "busyFor=arrival", "hideMs=100"], expected: """
           0  enqueue  A
           0  show     A
         200  enqueue  B
         400  enqueue  C
         400  hide     A  replaced
         500  gone     A
         500  show     C
        1500  hide     C  duration
        1600  gone     C
        1600  show     B
        2600  hide     B  duration
        2700  gone     B

        """),
        Case(scenario: two, options: ["busy=replace", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 300  enqueue  B
 300  hide     A  replaced
 400  gone     A
 400  show     B
 400  enqueue  C
 400  hide     B  replaced
 500  gone     B
 500  show     C
1500  hide     C  duration
1600  gone     C

"""),
        Case(scenario: two, options: ["busy=replace", "handoff=cross-fade", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 300  enqueue  B
 300  hide     A  replaced
 300  show     B
 400  gone     A
 400  enqueue  C
 400  hide     B  replaced
 400  show     C
 500  gone     B
1400  hide     C  duration
1500  gone     C

"""),
        Case(scenario: two, options: ["busy=drop", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 300  enqueue  B
 300  drop     B  overflow
 400  enqueue  C
 400  drop     C  overflow
1000  hide     A  duration
1100  gone     A

"""),
        Case(scenario: two, options: ["busy=preempt", "busyFor=high", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 300  enqueue  B
 300  hide     A  preempted
 300  requeue  A  preempted
 400  gone     A
 400  show     B
 400  enqueue  C
1400  hide     B  duration
1500  gone     B
1500  show     A
2500  hide     A  duration
2600  gone     A
2600  show     C
3600  hide     C  duration
3700  gone     C

"""),
        Case(scenario: two, options: ["order=lifo", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 300  enqueue  B
 400  enqueue  C
1000  hide     A  duration
1100  gone     A
1100  show     C
2100  hide     C  duration
2200  gone     C
2200  show     B
3200  hide     B  duration
3300  gone     B

"""),
        Case(scenario: two, options: ["order=priority+fifo", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 300  enqueue  B
 400  enqueue  C
1000  hide     A  duration
1100  gone     A
1100  show     C
2100  hide     C  duration
2200  gone     C
2200  show     B
3200  hide     B  duration
3300  gone     B

"""),
        Case(scenario: two, options: ["busy=preempt", "return=order", "order=priority+fifo", "busyFor=higher", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 300  enqueue  B
 400  enqueue  C
 400  hide     A  preempted
 400  requeue  A  preempted
 500  gone     A
 500  show     C
1500  hide     C  duration
1600  gone     C
1600  show     A
2600  hide     A  duration
2700  gone     A
2700  show     B
3700  hide     B  duration
3800  gone     B

"""),
        Case(scenario: preempt, options: [], expected: """
   0  enqueue  banner
   0  show     banner
 100  shown    banner
1100  enqueue  upgrade
1100  hide     banner   preempted
1100  requeue  banner   preempted
1200  gone     banner
1200  show     upgrade
1200  enqueue  tip
1300  shown    upgrade
2300  hide     upgrade  duration
2400  gone     upgrade
2400  show     banner
2500  shown    banner
4500  hide     banner   duration
4600  gone     banner
4600  show     tip
4700  shown    tip
5200  hide     tip      duration
5300  gone     tip

"""),
        Case(scenario: three, options: ["conditions=head", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  enqueue  C
   0  enqueue  D
 100  enqueue  A
1000  hide     A  duration
1100  gone     A
2500  show     B
3500  hide     B  duration
3600  gone     B
3600  show     C
4600  hide     C  duration
4700  gone     C
4700  show     D
5700  hide     D  duration
5800  gone     D
5800  show     A
6800  hide     A  duration
6900  gone     A

"""),
        Case(scenario: three, options: ["conditions=any", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  enqueue  C
   0  enqueue  D
 100  enqueue  A
1000  hide     A  duration
1100  gone     A
1100  show     C
2100  hide     C  duration
2200  gone     C
2200  show     D
3200  hide     D  duration
3300  gone     D
3300  show     B
4300  hide     B  duration
4400  gone     B
4400  show     A
5400  hide     A  duration
5500  gone     A

"""),
        Case(scenario: three, options: ["conditions=head", "failing=drop", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  enqueue  C
   0  enqueue  D
 100  enqueue  A
1000  hide     A  duration
1100  gone     A
1100  drop     B  condition
1100  show     C
2100  hide     C  duration
2200  gone     C
2200  show     D
3200  hide     D  duration
3300  gone     D
3300  show     A
4300  hide     A  duration
4400  gone     A

"""),
        Case(scenario: three, options: ["slots=2", "overflow=cut", "conditions=ignore", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  show     B
   0  enqueue  C
   0  hide     A  evicted
   0  show     C
   0  enqueue  D
   0  hide     B  evicted
   0  show     D
 100  enqueue  A
 100  hide     C  evicted
 100  show     A
1000  hide     D  duration
1100  gone     D
1100  hide     A  duration
1200  gone     A

"""),
        Case(scenario: three, options: ["slots=2", "overflow=evict", "conditions=ignore", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  show     B
   0  enqueue  C
   0  hide     A  evicted
   0  enqueue  D
 100  gone     A
 100  show     C
 100  hide     B  evicted
 100  enqueue  A
 200  gone     B
 200  show     D
 200  hide     C  evicted
 300  gone     C
 300  show     A
1200  hide     D  duration
1300  gone     D
1300  hide     A  duration
1400  gone     A

"""),
        Case(scenario: three, options: ["dedupe=queued", "dedupeBy=key", "conditions=any", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  enqueue  C
   0  enqueue  D
   0  drop     D  duplicate
 100  enqueue  A
1000  hide     A  duration
1100  gone     A
1100  show     C
2100  hide     C  duration
2200  gone     C
2200  show     A
3200  hide     A  duration
3300  gone     A
3300  show     B
4300  hide     B  duration
4400  gone     B

"""),
        Case(scenario: three, options: ["dedupe=visible", "conditions=any", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  enqueue  C
   0  enqueue  D
 100  enqueue  A
 100  drop     A  duplicate
1000  hide     A  duration
1100  gone     A
1100  show     C
2100  hide     C  duration
2200  gone     C
2200  show     D
3200  hide     D  duration
3300  gone     D
3300  show     B
4300  hide     B  duration
4400  gone     B

"""),
        Case(scenario: three, options: ["minGapMs=1500", "conditions=any", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  enqueue  C
   0  enqueue  D
 100  enqueue  A
1000  hide     A  duration
1100  gone     A
1500  show     C
2500  hide     C  duration
2600  gone     C
3000  show     B
4000  hide     B  duration
4100  gone     B
4500  show     D
5500  hide     D  duration
5600  gone     D
6000  show     A
7000  hide     A  duration
7100  gone     A

"""),
        Case(scenario: three, options: ["cooldownMs=700", "conditions=any", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  enqueue  C
   0  enqueue  D
 100  enqueue  A
1000  hide     A  duration
1100  gone     A
1800  show     C
2800  hide     C  duration
2900  gone     C
3600  show     B
4600  hide     B  duration
4700  gone     B
5400  show     D
6400  hide     D  duration
6500  gone     D
7200  show     A
8200  hide     A  duration
8300  gone     A

"""),
        Case(scenario: three, options: ["rateCount=2", "rateWindowMs=5000", "conditions=any", "hideMs=100"], expected: """
    0  enqueue  A
    0  show     A
    0  enqueue  B
    0  enqueue  C
    0  enqueue  D
  100  enqueue  A
 1000  hide     A  duration
 1100  gone     A
 1100  show     C
 2100  hide     C  duration
 2200  gone     C
 5000  show     B
 6000  hide     B  duration
 6100  gone     B
 6100  show     D
 7100  hide     D  duration
 7200  gone     D
10000  show     A
11000  hide     A  duration
11100  gone     A

"""),
        Case(scenario: three, options: ["ttlMs=1500", "conditions=any", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  enqueue  C
   0  enqueue  D
 100  enqueue  A
1000  hide     A  duration
1100  gone     A
1100  show     C
2100  hide     C  duration
2200  gone     C
2200  drop     D  expired
2200  drop     A  expired
2500  drop     B  expired

"""),
        Case(scenario: three, options: ["lifetimeCap=1", "conditions=any", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
   0  enqueue  B
   0  enqueue  C
   0  enqueue  D
 100  enqueue  A
1000  hide     A  duration
1100  gone     A
1100  show     C
2100  hide     C  duration
2200  gone     C
2200  show     D
3200  hide     D  duration
3300  gone     D
3300  show     B
4300  hide     B  duration
4400  gone     B
4400  drop     A  quota

"""),
        Case(scenario: four, options: ["pauseTimers=resume", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 200  suspend  -
 400  enqueue  B
1500  hide     A  duration
1600  gone     A
2000  resume   -
2000  show     B
2100  hide     B  removed
2200  gone     B

"""),
        Case(scenario: four, options: ["pauseTimers=restart", "suspend=ignore", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 200  suspend  -
 400  enqueue  B
1800  hide     A  duration
1900  gone     A
1900  show     B
2000  resume   -
2100  hide     B  removed
2200  gone     B

"""),
        Case(scenario: four, options: ["pauseTimers=half", "remove=ignore", "hideMs=100"], expected: """
   0  enqueue  A
   0  show     A
 200  suspend  -
 400  enqueue  B
1300  hide     A  duration
1400  gone     A
2000  resume   -
2000  show     B
3000  hide     B  duration
3100  gone     B

"""),
    ]

    @Test(arguments: cases)
    func knob(_ c: Case) throws {
        #expect(try timeline(c.scenario, strategy: "policy", options: c.options) == c.expected)
    }
}

/// Review findings of issue 20: each a scenario and its whole timeline under `policy`.
@Suite("policy: regressions from review")
struct PolicyRegressionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var why: String
        var scenario: String
        var expected: String
        var testDescription: String { why }
    }

    static let cases: [Case] = [
        Case(why: "a paused timer's leftover dies with the popup's dismissal", scenario: """
        {"popsim": 1, "name": "stale remaining", "strategy": "policy",
         "options": {"pauseTimers": "resume"},
         "popups": {"A": {"duration": 3000}},
         "events": [
          {"at": 0, "enqueue": "A"},
          {"at": 2500, "pauseTimers": true},
          {"at": 2600, "dismiss": "A"},
          {"at": 5000, "enqueue": "A"}
         ]}
        """, expected: """
           0  enqueue  A
           0  show     A
        2600  hide     A  user
        5000  enqueue  A
        5000  show     A
        8000  hide     A  duration

        """),
        Case(why: "a preempted popup's leftover dies when it is removed", scenario: """
        {"popsim": 1, "name": "stale remaining preempt", "strategy": "policy",
         "options": {"busy": "preempt", "returnTimer": "resume"},
         "popups": {"A": {"duration": 3000}, "B": {}},
         "events": [
          {"at": 0, "enqueue": "A"},
          {"at": 2500, "enqueue": "B"},
          {"at": 2600, "remove": "A"},
          {"at": 2700, "dismiss": "B"},
          {"at": 5000, "enqueue": "A"}
         ]}
        """, expected: """
           0  enqueue  A
           0  show     A
        2500  enqueue  B
        2500  hide     A  preempted
        2500  requeue  A  preempted
        2500  show     B
        2600  drop     A  removed
        2700  hide     B  user
        5000  enqueue  A
        5000  show     A
        8000  hide     A  duration

        """),
        Case(why: "a flagged popup removed before its entrance ends no longer blocks eviction", scenario: """
        {"popsim": 1, "name": "stale flag", "strategy": "policy",
         "options": {"overflow": "evict", "showMs": 300, "hideMs": 0},
         "popups": {"A": {}, "B": {}, "C": {}},
         "events": [
          {"at": 0, "enqueue": "A"},
          {"at": 100, "enqueue": "B"},
          {"at": 200, "remove": "A"},
          {"at": 1000, "enqueue": "C"},
          {"at": 3000, "dismiss": "B"},
          {"at": 4000, "enqueue": "A"}
         ]}
        """, expected: """
           0  enqueue  A
           0  show     A
         100  enqueue  B
         200  hide     A  removed
         200  show     B
         500  shown    B
        1000  enqueue  C
        1000  hide     B  evicted
        1000  show     C
        1300  shown    C
        3000  warning  B  not-shown
        4000  enqueue  A
        4000  hide     C  evicted
        4000  show     A
        4300  shown    A

        """),
        Case(why: "a popup shown in the same reply is flagged, not evicted at once", scenario: """
        {"popsim": 1, "name": "evict the one just shown", "strategy": "policy",
         "options": {"overflow": "evict", "slots": 1, "showMs": 300, "hideMs": 200},
         "popups": {"A": {}, "B": {}, "C": {}},
         "events": [
          {"at": 0, "suspend": true},
          {"at": 0, "enqueue": ["A", "B", "C"]},
          {"at": 100, "resume": true}
         ]}
        """, expected: """
           0  suspend  -
           0  enqueue  A
           0  enqueue  B
           0  enqueue  C
         100  resume   -
         100  show     A
         400  shown    A
         400  hide     A  evicted
         600  gone     A
         600  show     B
         900  shown    B
         900  hide     B  evicted
        1100  gone     B
        1100  show     C
        1400  shown    C

        """),
        Case(why: "a popup that preempted keeps its priority band when it is preempted in turn", scenario: """
        {"popsim": 1, "name": "ahead band", "strategy": "policy",
         "options": {"order": "priority+fifo", "busy": "preempt", "busyFor": "all", "return": "order"},
         "popups": {"A": {"priority": 100}, "B": {"priority": 500}, "C": {"priority": 50}},
         "events": [
          {"at": 0, "enqueue": "A"},
          {"at": 100, "enqueue": "B"},
          {"at": 200, "enqueue": "C"},
          {"at": 300, "dismiss": "C"}
         ]}
        """, expected: """
          0  enqueue  A
          0  show     A
        100  enqueue  B
        100  hide     A  preempted
        100  requeue  A  preempted
        100  show     B
        200  enqueue  C
        200  hide     B  preempted
        200  requeue  B  preempted
        200  show     C
        300  hide     C  user
        300  show     B

        """),
        Case(why: "a returning popup's time to live counts from its return", scenario: """
        {"popsim": 1, "name": "ttl returning", "strategy": "policy",
         "options": {"busy": "preempt", "ttlMs": 1000},
         "popups": {"A": {}, "B": {}},
         "events": [
          {"at": 0, "enqueue": "A"},
          {"at": 5000, "enqueue": "B"},
          {"at": 5200, "dismiss": "B"}
         ]}
        """, expected: """
           0  enqueue  A
           0  show     A
        5000  enqueue  B
        5000  hide     A  preempted
        5000  requeue  A  preempted
        5000  show     B
        5200  hide     B  user
        5200  show     A

        """),
        Case(why: "a return is not a new show for the lifetime cap", scenario: """
        {"popsim": 1, "name": "quota returning", "strategy": "policy",
         "options": {"busy": "preempt"},
         "popups": {"A": {"maxShows": 1}, "B": {}},
         "events": [
          {"at": 0, "enqueue": "A"},
          {"at": 100, "enqueue": "B"},
          {"at": 200, "dismiss": "B"}
         ]}
        """, expected: """
          0  enqueue  A
          0  show     A
        100  enqueue  B
        100  hide     A  preempted
        100  requeue  A  preempted
        100  show     B
        200  hide     B  user
        200  show     A

        """),
        Case(why: "overflow makes room only for a popup that could show now", scenario: """
        {"popsim": 1, "name": "cut for a popup that cannot show", "strategy": "policy",
         "options": {"overflow": "cut", "slots": 1},
         "state": {"loggedIn": false},
         "popups": {"A": {}, "B": {"when": "loggedIn"}},
         "events": [
          {"at": 0, "enqueue": "A"},
          {"at": 100, "enqueue": "B"},
          {"at": 3000, "set": {"loggedIn": true}}
         ]}
        """, expected: """
           0  enqueue  A
           0  show     A
         100  enqueue  B
        3000  hide     A  evicted
        3000  show     B

        """),
    ]

    @Test(arguments: cases)
    func timeline(_ c: Case) throws {
        #expect(try PopsimTestSupport.timeline(c.scenario) == c.expected)
    }
}

import Testing
@testable import PopsimCore
@testable import PopsimReports
@testable import PopsimCLI
import PopsimTestSupport

/// Edges of the peer strategies (peers.md §1.1, §1.2, §2.1, §2.5) that the goldens do not reach.
@Suite("peer strategies: edges")
struct PeerStrategyTests {
    func scenario(_ strategy: String, _ popups: String, _ events: String, options: String = "{}") -> String {
        scenarioText(strategy: strategy, popups: popups, events: events, options: options)
    }

    /// A toast whose turn comes while it is still leaving shows at its `gone`, with its request
    /// still open (no second `requeue`).
    @Test func adwToastWaitsForItsOwnGone() throws {
        let text = scenario("adw-toast", #""a": {}, "h": {"level": "high"}"#,
                            #"{"at": 0, "enqueue": "a"}, {"at": 1000, "enqueue": "h"}, {"at": 1010, "remove": "h"}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
             300  shown    a
            1000  enqueue  h
            1000  hide     a  preempted
            1000  requeue  a  preempted
            1000  show     h
            1010  hide     h  removed
            1300  gone     a
            1300  show     a
            1310  gone     h
            1600  shown    a
            6300  hide     a  duration
            6600  gone     a

            """)
    }

    /// SwiftEntryKit makes a new entry view on every display (EKWindowProvider.swift:141-144): `a`
    /// displayed again while on screen is a second instance that replaces it (the first pops);
    /// displayed once more while that one is on screen, it is `a` again (off screen by then).
    @Test func entryKitReDisplayIsASecondEntryView() throws {
        let text = scenario("entrykit", #""a": {"duration": 1000}"#,
                            #"{"at": 0, "enqueue": "a"}, {"at": 500, "enqueue": "a"}, {"at": 1400, "enqueue": "a"}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
             300  shown    a
             500  enqueue  a#2
             500  hide     a    replaced
             500  show     a#2
             800  gone     a
             800  shown    a#2
            1400  enqueue  a
            1400  hide     a#2  replaced
            1400  show     a
            1700  gone     a#2
            1700  shown    a
            2700  hide     a    duration
            3000  gone     a

            """)
    }

    /// notistack without preventDuplicate makes a second snack of the same key
    /// (`SnackbarProvider.tsx` :81-82, :114-128: a new id every `enqueueSnackbar`): `a#2` shows
    /// beside `a` in a free slot, `a#3` waits for one; `remove a` (`closeSnackbar`) takes every
    /// snack of a, the queued one dropped and the one on screen closed.
    @Test func notistackWithoutDedupeShowsASecondSnackBesideTheFirst() throws {
        let text = scenario("notistack", #""a": {"duration": 1000}, "b": {"duration": 1000}"#,
                            #"{"at": 0, "enqueue": "a"}, {"at": 100, "enqueue": ["a", "b"]}, {"at": 200, "enqueue": "a"}, "#
                            + #"{"at": 300, "remove": "a"}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
             100  enqueue  a#2
             100  show     a#2
             100  enqueue  b
             100  show     b
             200  enqueue  a#3
             225  shown    a
             225  hide     a    evicted
             300  drop     a#3  removed
             300  hide     a#2  removed
             325  shown    b
             720  gone     a
             795  gone     a#2
            1100  hide     b    duration
            1595  gone     b

            """)
    }

    /// sonner with an id (`ids: given`): the same toast again updates it, and its countdown starts
    /// again with what it had left at its last pause (index.tsx :219-241, `remainingTime`): paused
    /// at 1000 with 3000 left, resumed at 2000, updated at 2500: it ends at 5500, not 5000.
    @Test func sonnerUpdateRestartsTheCountdownWithWhatTheLastPauseLeft() throws {
        let text = scenario("sonner", #""a": {}"#,
                            #"{"at": 0, "enqueue": "a"}, {"at": 1000, "pauseTimers": true}, {"at": 2000, "resumeTimers": true}, "#
                            + #"{"at": 2500, "enqueue": "a"}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
            2500  enqueue  a
            2500  drop     a  duplicate
            5500  hide     a  duration
            5700  gone     a

            """)
    }

    /// sonner without an id (`ids: none`, `toast()` as most apps call it): every request is a new
    /// toast, `a#2` on top of `a`, which one visible slot covers; `remove a` dismisses both.
    @Test func sonnerWithoutIdsEveryRequestIsANewToast() throws {
        let text = scenario("sonner", #""a": {}"#, #"{"at": 0, "enqueue": "a"}, {"at": 1000, "enqueue": "a"}, {"at": 1500, "remove": "a"}"#,
                            options: #"{"ids": "none", "slots": 1}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
            1000  enqueue  a#2
            1000  hide     a    covered
            1000  show     a#2
            1500  drop     a    removed
            1500  hide     a#2  removed
            1700  gone     a#2

            """)
    }

    /// libadwaita with `adw_toast_new` per request (`toasts: new`): each is a toast of its own,
    /// queued behind the first; `remove a` dismisses every toast of a, the queued ones first
    /// (the preempted `a` is back at the head).
    @Test func adwToastNewToastsEachWaitTheirTurn() throws {
        let text = scenario("adw-toast", #""a": {"duration": 1000}, "b": {"duration": 1000, "level": "high"}"#,
                            #"{"at": 0, "enqueue": "a"}, {"at": 100, "enqueue": ["a", "a"]}, {"at": 200, "enqueue": "b"}, {"at": 500, "remove": "a"}"#,
                            options: #"{"toasts": "new"}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
             100  enqueue  a#2
             100  enqueue  a#3
             200  enqueue  b
             200  hide     a    preempted
             200  requeue  a    preempted
             200  show     b
             500  gone     a
             500  drop     a    removed
             500  drop     a#2  removed
             500  drop     a#3  removed
             700  shown    b
            1200  hide     b    duration
            1500  gone     b

            """)
    }

    /// A timer target names the file's popup and so its instances: `pauseTimers a` holds `a` and
    /// `a#2`, and `resumeTimers a` gives both half their duration (notistack).
    @Test func aTimerTargetReachesThePopupsInstances() throws {
        let text = scenario("notistack", #""a": {"duration": 1000}"#,
                            #"{"at": 0, "enqueue": "a"}, {"at": 100, "enqueue": "a"}, {"at": 500, "pauseTimers": "a"}, "#
                            + #"{"at": 2000, "resumeTimers": "a"}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
             100  enqueue  a#2
             100  show     a#2
             225  shown    a
             325  shown    a#2
            2500  hide     a    duration
            2500  hide     a#2  duration
            2995  gone     a
            2995  gone     a#2

            """)
    }

    /// Under the LONG default a re-show restarts the timeout; a snackbar presenting is only merged.
    @Test func mdcSnackbarReshowWhilePresentingOnlyMerges() throws {
        let text = scenario("mdc-snackbar", #""a": {}"#, #"{"at": 0, "enqueue": "a"}, {"at": 100, "enqueue": "a"}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
             100  enqueue  a
             100  drop     a  duplicate
             250  shown    a
            1750  hide     a  duration
            2000  gone     a

            """)
    }

    /// `remove` is `dismiss(.specific(entryName:))`: every queued instance of the name leaves (one
    /// line each) and so does the entry on screen when it has the name; a second display of an
    /// entry queued or on screen is an instance of its own (`b#2`, `a#2`).
    @Test func entryKitRemoveTakesQueuedCopiesAndTheCurrentEntry() throws {
        let text = scenario("entrykit", #""a": {"arrival": "queue", "duration": "forever"}, "b": {"arrival": "queue"}"#,
                            #"{"at": 0, "enqueue": ["a", "b", "b", "a"]}, {"at": 500, "remove": "b"}, {"at": 600, "remove": "a"}"#)
        let result = try run(text)
        #expect(TimelineText.render(result.timeline) == """
              0  enqueue  a
              0  show     a
              0  enqueue  b
              0  enqueue  b#2
              0  enqueue  a#2
            300  shown    a
            500  drop     b    removed
            500  drop     b#2  removed
            600  drop     a#2  removed
            600  hide     a    removed
            900  gone     a

            """)
        #expect(result.pending.isEmpty)
    }

    /// `clearUpTo` reaches the screen only through the newest entry's (weak) view: `b` is gone, so
    /// `a`, still popping (2 s), is left alone; `clearScreen` animates the window's last view out
    /// whatever it is, and `a` leaves at that sooner removal, so the waiting `c` shows at 1200, not
    /// 2500. The real code gives the same rows (entrykit-oracle, EKWindowProvider.swift :191-214).
    @Test func entryKitClearUpToLooksAtTheNewestEntryClearScreenAtTheWindow() throws {
        let text = scenario("entrykit", #""a": {"duration": "forever"}, "b": {"duration": 100, "showMs": 0, "hideMs": 0}, "#
                            + #""c": {"arrival": "queue", "priority": 600}"#,
                            #"{"at": 0, "enqueue": "a"}, {"at": 500, "enqueue": "b"}, {"at": 550, "enqueue": "c"}, "#
                            + #"{"at": 700, "clearUpTo": 300}, {"at": 900, "clearScreen": true}"#,
                            options: #"{"popMs": 2000}"#)
        #expect(try timeline(text) == """
               0  enqueue  a
               0  show     a
             300  shown    a
             500  enqueue  b
             500  hide     a  replaced
             500  show     b
             550  enqueue  c
             600  hide     b  duration
            1200  gone     a
            1200  show     c
            1500  shown    c
            3500  hide     c  duration
            3800  gone     c

            """)
    }

    /// With dedupe off the same message may wait behind itself; the pause still holds it back.
    @Test func swiftMessagesWithoutDedupeShowsARepeatAfterThePause() throws {
        let text = scenario("swiftmessages", #""a": {}"#, #"{"at": 0, "enqueue": ["a", "a"]}"#,
                            options: #"{"dedupe": "off"}"#)
        #expect(try timeline(text).hasSuffix("2600  gone     a\n3100  show     a\n3500  shown    a\n5500  hide     a  duration\n5700  gone     a\n"))
    }
}

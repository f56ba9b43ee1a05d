import Testing
@testable import PopsimCore
import PopsimTestSupport

/// `policy`'s `caps`: at most MAX shows of a popup, key or level in any window; a popup of a
/// full scope is dropped (`quota`) when it comes up, the others show (issue 40).
@Suite("policy: scoped caps")
struct ScopedCapTests {
    @Test func capsReadAsWritten() {
        #expect(ScopedCap.parseAll("") == [])
        #expect(ScopedCap.parseAll("campaign:2/24h;key:promo:5/30m;level:high:1/1000") == [
            ScopedCap(scope: .popup("campaign"), max: 2, windowMs: 86_400_000),
            ScopedCap(scope: .key("promo"), max: 5, windowMs: 1_800_000),
            ScopedCap(scope: .level("high"), max: 1, windowMs: 1000),
        ])
        for bad in ["campaign", "campaign:2", "campaign:x/1h", "campaign:2/0", "campaign:2/1w", ":2/1h", "key::2/1h", "campaign:-1/1h", "a:1/1h;"] {
            #expect(ScopedCap.parseAll(bad) == nil, "\(bad)")
        }
        #expect(ScopedCap.milliseconds("7d") == 604_800_000 && ScopedCap.milliseconds("45s") == 45_000)
        #expect(ScopedCap.milliseconds("99999999999999d") == nil)
    }

    /// Three campaigns and an upgrade, one at a time; two campaigns a minute: the third is
    /// dropped, the upgrade shows; a minute after the first, campaigns show again.
    @Test func aFullScopeDropsItsPopupsOnly() throws {
        let text = #"""
            {"popsim": 1, "strategy": "policy", "options": {"caps": "campaign:2/60s"},
             "popups": {"campaign": {"duration": 1000}, "upgrade": {"duration": 1000}},
             "events": [{"at": 0, "enqueue": "campaign"}, {"at": 2000, "enqueue": "campaign"}, {"at": 4000, "enqueue": "campaign"},
                        {"at": 4000, "enqueue": "upgrade"}, {"at": 61000, "enqueue": "campaign"}]}
            """#
        let scenario = try loadScenario(text).get()
        let configuration = try RunConfiguration.resolve(scenario, strategy: nil, overrides: [])
        let result = try configuration.run(scenario)
        let drops = result.timeline.entries.filter { $0.event == .drop }.map { "\($0.t) \(result.timeline.subjects[Int($0.subject)]) \($0.reason?.rawValue ?? "")" }
        #expect(drops == ["4000 campaign quota"])
        #expect(result.requestsShown == 4)
    }

    @Test func aScopeThatNamesNothingIsAnError() throws {
        let scenario = try loadScenario(#"{"popsim": 1, "strategy": "policy", "popups": {"a": {}}, "events": []}"#).get()
        #expect(throws: PopsimError.self) {
            try RunConfiguration.resolve(scenario, strategy: nil, overrides: [OptionOverride(name: "caps", value: "key:promo:1/1h")])
        }
        #expect(throws: PopsimError.self) {
            try RunConfiguration.resolve(scenario, strategy: nil, overrides: [OptionOverride(name: "caps", value: "a:1")])
        }
        let ok = try RunConfiguration.resolve(scenario, strategy: nil, overrides: [OptionOverride(name: "caps", value: "a:1/1h")])
        #expect(ok.options.text("caps") == "a:1/1h")
    }

    /// `--sweep dailyCap.SCOPE=…` is a daily cap on that scope under a strategy with `caps`; a
    /// strategy without it is the baseline.
    @Test func aDailyCapOnAScopeIsSwept() throws {
        let sweep = try Sweep.parse(["dailyCap.campaign=1,2", "dailyCap.key:promo=5"]).get()
        let policy = try #require(StrategyRegistry.entry(named: "policy")), fg = try #require(StrategyRegistry.entry(named: "fg"))
        #expect(sweep.overrides(["2", "5"], under: policy) == ["caps+=campaign:2/24h", "caps+=key:promo:5/24h"])
        #expect(!sweep.isBaseline(for: policy) && sweep.isBaseline(for: fg))
        let others = try Sweep.parse(["cap.campaign/1h=1,2", "gap.level:high=30s", "cooldown.key:promo=1m"]).get()
        #expect(others.overrides(["2", "30s", "1m"], under: policy) == ["caps+=campaign:2/1h", "caps+=level:high:gap=30s", "caps+=key:promo:cooldown=1m"])
    }

    @Test func gapsAndCooldownsReadAsWritten() {
        #expect(ScopedCap.parseAll("campaign:gap=30s;key:promo:cooldown=1500") == [
            ScopedCap(scope: .popup("campaign"), limit: .gap(ms: 30_000)),
            ScopedCap(scope: .key("promo"), limit: .cooldown(ms: 1500)),
        ])
        for bad in ["campaign:gap=", "campaign:gap=0", "campaign:cooldown=x", "campaign:wait=1s", "gap=1s"] {
            #expect(ScopedCap.parseAll(bad) == nil, "\(bad)")
        }
        #expect(ScopedCap.text(ScopedCap.parseAll("a:2/86400000;b:gap=90000;c:cooldown=1500")!) == "a:2/1d;b:gap=90s;c:cooldown=1500")
    }

    /// The times each popup showed, in order.
    static func shows(_ text: String, overrides: [OptionOverride] = []) throws -> [String] {
        let scenario = try loadScenario(text).get()
        let result = try RunConfiguration.resolve(scenario, strategy: nil, overrides: overrides).run(scenario)
        return result.timeline.entries.filter { $0.event == .show }.map { "\($0.t) \(result.timeline.subjects[Int($0.subject)])" }
    }

    static let twoCampaignsAndATip = #"""
        {"popsim": 1, "strategy": "policy", "options": {"caps": "campaign:gap=10s"},
         "popups": {"campaign": {"duration": 1000}, "tip": {"duration": 1000}},
         "events": [{"at": 0, "enqueue": "campaign"}, {"at": 0, "enqueue": "campaign"}, {"at": 0, "enqueue": "tip"}]}
        """#

    /// A scope's gap holds its own popups only: the second campaign keeps its place while the tip
    /// behind it shows, and shows 10 s after the first (the global `minGapMs` would hold the tip).
    @Test func aScopedGapHoldsItsPopupsOnly() throws {
        #expect(try Self.shows(Self.twoCampaignsAndATip) == ["0 campaign", "1000 tip", "10000 campaign"])
        let global = Self.twoCampaignsAndATip.replacingOccurrences(of: #""caps": "campaign:gap=10s""#, with: #""minGapMs": 10000"#)
        #expect(try Self.shows(global) == ["0 campaign", "10000 campaign", "20000 tip"])
    }

    /// A scope's cooldown counts from its popup gone (1 s on screen, then 5 s).
    @Test func aScopedCooldownCountsFromGone() throws {
        let text = Self.twoCampaignsAndATip.replacingOccurrences(of: "campaign:gap=10s", with: "campaign:cooldown=5s")
        #expect(try Self.shows(text) == ["0 campaign", "1000 tip", "6000 campaign"])
    }

    /// `caps+=` joins a policy's own caps: a rule of the same scope and kind replaced, others kept;
    /// two swept scopes join each other.
    @Test func addedCapsJoinTheOwnOnes() throws {
        let scenario = try loadScenario(#"""
            {"popsim": 1, "strategy": "policy", "options": {"caps": "campaign:3/24h;tip:gap=1s"},
             "popups": {"campaign": {}, "tip": {}}, "events": []}
            """#).get()
        let sweep = try Sweep.parse(["dailyCap.campaign=1", "cooldown.tip=2s"]).get()
        let policy = try #require(StrategyRegistry.entry(named: "policy"))
        let overrides = try OptionOverride.parseAll(sweep.overrides(["1", "2s"], under: policy))
        let joined = try RunConfiguration.resolve(scenario, strategy: nil, overrides: overrides)
        #expect(joined.options.text("caps") == "campaign:1/1d;tip:gap=1s;tip:cooldown=2s")
        #expect(throws: PopsimError.self) {
            try RunConfiguration.resolve(scenario, strategy: nil, overrides: [OptionOverride(name: "slots+", value: "2")])
        }
    }
}

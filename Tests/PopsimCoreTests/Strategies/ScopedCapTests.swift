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
        #expect(sweep.overrides(["2", "5"], under: policy) == ["caps=campaign:2/24h", "caps=key:promo:5/24h"])
        #expect(!sweep.isBaseline(for: policy) && sweep.isBaseline(for: fg))
    }
}

/// Every way a scenario's open questions can resolve, numbered: variant 0 is the nominal one.
///
/// Each uncertainty is a digit of a mixed-radix number: a window of w instants has w values
/// (the start first), a batch of k popups k! orders (file order first, then the permutations in
/// lexicographic order), a maybe-event two (happening first). `count` saturates at `Int.max`.
public struct VariantSpace: Sendable {
    public let uncertainties: [Uncertainty]
    /// The size of each digit.
    public let radices: [Int]
    public let count: Int

    public init(_ scenario: Scenario) {
        self.init(uncertainties: scenario.uncertainties)
    }

    init(uncertainties: [Uncertainty]) {
        self.uncertainties = uncertainties
        radices = uncertainties.map { u in
            var r = 1
            if let w = u.window { r = r.times((w.upperBound - w.lowerBound).plus(1)) }
            if let k = u.batch { r = r.times(Self.factorial(k)) }
            if u.maybe { r = r.times(2) }
            return r
        }
        count = radices.reduce(1) { $0.times($1) }
    }

    /// The variant numbered `index` (0 ..< count).
    public func variant(_ index: Int) -> Variant {
        var rest = index
        var v = Variant(times: [], orders: [], present: [])
        for (k, u) in uncertainties.enumerated() {
            var digit = rest % radices[k]
            rest /= radices[k]
            var present = true
            if u.maybe {
                present = digit % 2 == 0
                digit /= 2
            }
            var order: [Int] = []
            if let n = u.batch {
                let f = Self.factorial(n)
                order = Self.permutation(digit % f, of: n)
                digit /= f
            }
            v.times.append((u.window?.lowerBound ?? 0) + digit)
            v.orders.append(order)
            v.present.append(present)
        }
        return v
    }

    /// A random variant: each window's instant, each batch's order and each maybe drawn from `rng`.
    public func random(_ rng: inout SplitMix64) -> Variant {
        var v = Variant(times: [], orders: [], present: [])
        for u in uncertainties {
            let lo = u.window?.lowerBound ?? 0
            let width = u.window.map { $0.upperBound - $0.lowerBound } ?? 0
            v.times.append(width == 0 ? lo : lo + Int(rng.next() % (UInt64(width) + 1)))
            var order = Array(0..<(u.batch ?? 0))
            if order.count > 1 {
                for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            }
            v.orders.append(order)
            v.present.append(u.maybe ? rng.next() % 2 == 0 : true)
        }
        return v
    }

    /// The variants an exploration runs (`Plan`): all of them when they fit `budget`
    /// (exhaustive), else the nominal one, each window at its end (so both ends of every window are
    /// covered), then seeded random ones up to the budget.
    public func plan(budget: Int, seed: UInt64) -> Plan {
        if count <= budget { return Plan(space: self, count: count, exhaustive: true, ends: [], seed: seed) }
        // After the nominal variant (number 0): each window at its end, as long as the budget lasts.
        var ends: [Int] = []
        for (k, u) in uncertainties.enumerated() where u.window != nil && ends.count + 1 < budget {
            ends.append(k)
        }
        return Plan(space: self, count: budget, exhaustive: false, ends: ends, seed: seed)
    }

    static func factorial(_ n: Int) -> Int { (1...max(1, n)).reduce(1) { $0.times($1) } }

    /// The `index`-th permutation of 0..<n in lexicographic order (the Lehmer code).
    static func permutation(_ index: Int, of n: Int) -> [Int] {
        if index == 0 { return Array(0..<n) }
        var pool = Array(0..<n)
        var rest = index
        var out: [Int] = []
        for i in stride(from: n, to: 0, by: -1) {
            let f = factorial(i - 1)
            let j = min(rest / f, pool.count - 1)
            rest %= f
            out.append(pool.remove(at: j))
        }
        return out
    }
}

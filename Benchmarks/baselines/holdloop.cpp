// Baseline for popsim's benchmark: the classic "hold" model of a discrete-event queue.
// 1,000 pending events in a std::priority_queue; each step pops the earliest and schedules a
// new one a pseudo-random delay later, 10^6 steps in all. Prints a checksum so the loop is kept.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
    const long steps = argc > 1 ? std::atol(argv[1]) : 1000000;
    const int pending = argc > 2 ? std::atoi(argv[2]) : 1000;
    using Event = std::pair<int64_t, int64_t>;  // (time, sequence)
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue;
    uint64_t state = 12345;
    auto next = [&state]() {  // SplitMix64
        uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    };
    int64_t sequence = 0;
    for (int i = 0; i < pending; i++) queue.push({int64_t(next() % 1000), sequence++});
    int64_t checksum = 0;
    for (long i = 0; i < steps; i++) {
        Event e = queue.top();
        queue.pop();
        checksum += e.first ^ e.second;
        queue.push({e.first + int64_t(next() % 1000), sequence++});
    }
    std::printf("%lld\n", static_cast<long long>(checksum));
    return 0;
}

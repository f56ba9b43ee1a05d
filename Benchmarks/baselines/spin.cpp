// A CPU-bound loop with no memory traffic (a linear congruential step, ~1.5 s here): the
// benchmark runs it alone, then two copies at once, to tell what two busy cores give over one on
// the machine (`two_core_ceiling`). Compiled code, so neither copy waits on an interpreter.
#include <cstdint>
#include <cstdio>

int main() {
    volatile std::uint64_t x = 1;
    for (std::uint64_t i = 0; i < 1500000000ULL; i++) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    std::printf("%llu\n", static_cast<unsigned long long>(x));
    return 0;
}

// Random Add/Sub/Mul/Min/Max trees over x, y, z and a few constants, printed with
// Halide's simplification: one "input<TAB>output" line each. See README.md.
// A third argument `divmod` adds Div and Mod nodes, `eq` compares two trees with `==`
// (the default stream is unchanged).
#include "Halide.h"
#include <iostream>
#include <random>
using namespace Halide;
using namespace Halide::Internal;
std::mt19937 rng(12345);
bool divmod = false;
Expr leaf() {
    static const char *vars[] = {"x", "y", "z"};
    static const int consts[] = {-256, -2, -1, 0, 1, 2, 3, 4, 8, 256};
    if (rng() % 2) return Variable::make(Int(32), vars[rng() % 3]);
    return IntImm::make(Int(32), consts[rng() % 10]);
}
Expr gen(int d) {
    if (d == 0 || rng() % 4 == 0) return leaf();
    Expr a = gen(d - 1), b = gen(d - 1);
    if (divmod && rng() % 4 == 0) {
        return rng() % 2 ? Div::make(a, b) : Mod::make(a, b);
    }
    switch (rng() % 6) {
    case 0: return Add::make(a, b);
    case 1: case 5: return Sub::make(a, b);
    case 2: return Mul::make(a, b);
    case 3: return Min::make(a, b);
    default: return Max::make(a, b);
    }
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    divmod = argc > 3 && std::string(argv[3]) == "divmod";
    for (int i = 0; i < n; i++) {
        int d = argc > 2 ? atoi(argv[2]) : 4;
        Expr e = gen(d);
        if (argc > 3 && std::string(argv[3]) == "eq") {
            e = EQ::make(e, gen(d));
        }
        std::cout << e << "\t" << simplify(e) << "\n";
    }
}

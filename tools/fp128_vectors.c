/* Test vectors for the interpreter's binary128 arithmetic
 * (core/src/interp/fparith/vectors.txt), computed by GCC's __float128:
 * libgcc's soft-fp for + - * / and conversions, libquadmath for the rest.
 * Square roots come from tools/fp128_sqrt_vectors.py instead: GCC 12's
 * sqrtq is not correctly rounded (GCC bug 105101).
 *
 *   gcc -O1 -o /tmp/fp128_vectors tools/fp128_vectors.c -lquadmath
 *   /tmp/fp128_vectors > core/src/interp/fparith/vectors.txt
 *   python3 tools/fp128_sqrt_vectors.py >> core/src/interp/fparith/vectors.txt
 *
 * One case a line: an operation, its operands and its result, each as hex
 * digits from the most significant end (32 for fp128, 16/8/4 for
 * double/float/half, 32 for 128-bit integers); `nan` for a NaN result,
 * `oor` for a conversion to an integer out of range. The random operands
 * come from a fixed seed, so the file is reproducible. */
#include <quadmath.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;

static uint64_t state = 0x5eed;

static uint64_t next(void) {
    /* splitmix64 */
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static long between(long lo, long hi) { return lo + (long)(next() % (uint64_t)(hi - lo + 1)); }

static u128 bits_of(__float128 x) {
    u128 b;
    memcpy(&b, &x, 16);
    return b;
}

static __float128 from_bits(u128 b) {
    __float128 x;
    memcpy(&x, &b, 16);
    return x;
}

/* A value with this sign, biased exponent and a random fraction. */
static __float128 make(int sign, long biased) {
    if (biased < 0) biased = 0;
    if (biased > 0x7ffe) biased = 0x7ffe;
    u128 frac = ((u128)(next() & 0xffffffffffffull) << 64) | next();
    return from_bits(((u128)sign << 127) | ((u128)biased << 112) | frac);
}

static __float128 random_near(long biased) { return make(next() & 1, biased); }

static void hex128(u128 b) { printf(" %016llx%016llx", (unsigned long long)(b >> 64), (unsigned long long)b); }

static void quad(__float128 x) {
    if (isnanq(x)) printf(" nan");
    else hex128(bits_of(x));
}

static void binary(const char *op, __float128 a, __float128 b) {
    __float128 r;
    if (!strcmp(op, "add")) r = a + b;
    else if (!strcmp(op, "sub")) r = a - b;
    else if (!strcmp(op, "mul")) r = a * b;
    else if (!strcmp(op, "div")) r = a / b;
    else r = fmodq(a, b);
    printf("%s", op);
    quad(a);
    quad(b);
    quad(r);
    printf("\n");
}

static void fma3(__float128 a, __float128 b, __float128 c) {
    printf("fma");
    quad(a);
    quad(b);
    quad(c);
    quad(fmaq(a, b, c));
    printf("\n");
}

static void unary(const char *op, __float128 a) {
    __float128 r;
    if (!strcmp(op, "floor")) r = floorq(a);
    else if (!strcmp(op, "ceil")) r = ceilq(a);
    else if (!strcmp(op, "trunc")) r = truncq(a);
    else if (!strcmp(op, "round")) r = roundq(a);
    else r = rintq(a);
    printf("%s", op);
    quad(a);
    quad(r);
    printf("\n");
}

static void conversions(__float128 a) {
    double d = (double)a;
    float f = (float)a;
    _Float16 h = (_Float16)a;
    uint64_t db;
    uint32_t fb;
    uint16_t hb;
    memcpy(&db, &d, 8);
    memcpy(&fb, &f, 4);
    memcpy(&hb, &h, 2);
    if (isnanq(a)) return;
    printf("to_f64");
    quad(a);
    printf(" %016llx\nto_f32", (unsigned long long)db);
    quad(a);
    printf(" %08x\nto_f16", fb);
    quad(a);
    printf(" %04x\nfrom_f64 %016llx", hb, (unsigned long long)db);
    quad((__float128)d);
    printf("\nto_i128");
    quad(a);
    /* In range when -2^127 <= trunc(a) < 2^127. */
    __float128 t = truncq(a);
    if (t >= -0x1p127Q && t < 0x1p127Q) hex128((u128)(__int128)a);
    else printf(" oor");
    printf("\n");
}

static void from_int(u128 v) {
    printf("from_i128");
    hex128(v);
    quad((__float128)(__int128)v);
    printf("\nfrom_u128");
    hex128(v);
    quad((__float128)v);
    printf("\n");
}

int main(void) {
    const long bias = 0x3fff;
    const u128 one = (u128)bias << 112;
    const __float128 specials[] = {
        0.0Q, -0.0Q, 1.0Q, -1.5Q,
        from_bits(1),                                      /* smallest subnormal */
        from_bits(((u128)1 << 127) | (((u128)1 << 112) - 1)), /* -largest subnormal */
        FLT128_MIN, FLT128_MAX, -FLT128_MAX,
        __builtin_infq(), -__builtin_infq(), __builtin_nanq(""),
    };
    const int n = sizeof specials / sizeof specials[0];
    const char *ops[] = {"add", "sub", "mul", "div", "rem"};

    for (int o = 0; o < 5; o++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) binary(ops[o], specials[i], specials[j]);

    /* Ties to even: 1 + 2^-113 is halfway between 1 and its successor. */
    binary("add", 1.0Q, 0x1p-113Q);
    binary("add", from_bits(one | 1), 0x1p-113Q);
    binary("add", 1.0Q, 0x1.8p-113Q);
    binary("sub", 1.0Q, 0x1p-114Q);
    binary("sub", 1.0Q, 0x1p-113Q);
    binary("add", FLT128_MAX, 0x1p16270Q);             /* half an ulp: overflows */
    binary("add", FLT128_MAX, 0x1.fffp16269Q);
    binary("mul", from_bits(1), 0.5Q);                  /* tie below the subnormals */
    binary("mul", from_bits(3), 0.5Q);
    binary("mul", from_bits(5), 0.5Q);
    binary("mul", FLT128_MIN, 0x1.8p-1Q);               /* normal to subnormal */
    binary("div", 1.0Q, 3.0Q);
    binary("div", 2.0Q, 3.0Q);
    binary("div", FLT128_MIN, 0x1p112Q);
    binary("div", FLT128_MIN, 0x1.0000000000000000000000000001p113Q);

    for (int i = 0; i < 120; i++) {
        long e = between(1, 0x7ffe);
        __float128 a = random_near(e), b = random_near(e + between(-120, 120));
        binary(i % 2 ? "add" : "sub", a, b);
    }
    for (int i = 0; i < 30; i++) { /* cancellation near the subnormals */
        long e = between(0, 3);
        binary("sub", make(0, e), make(0, e + between(-1, 1)));
    }
    for (int i = 0; i < 100; i++) {
        long ea = between(0, 0x7ffe), eb = i % 2 ? between(0, 0x7ffe) : 2 * bias - ea + between(-130, 20);
        binary("mul", random_near(ea), random_near(eb));
    }
    for (int i = 0; i < 100; i++) {
        long ea = between(0, 0x7ffe), eb = i % 2 ? between(0, 0x7ffe) : ea + between(-20, 130);
        binary("div", random_near(ea), random_near(eb));
    }
    for (int i = 0; i < 60; i++) {
        long eb = between(0, 0x7ffe), ea = eb + (i % 3 ? between(-5, 300) : between(0, 0x7ffe));
        binary("rem", random_near(ea), random_near(eb));
    }
    for (int i = 0; i < 120; i++) {
        long ea = between(bias - 200, bias + 200), eb = between(bias - 200, bias + 200);
        long ec = ea + eb - bias + between(-120, 120);
        __float128 a = random_near(ea), b = random_near(eb), c = random_near(ec);
        if (i % 4 == 0) c = -(a * b); /* exact cancellation of the rounded product */
        fma3(a, b, c);
    }
    fma3(FLT128_MAX, 2.0Q, -FLT128_MAX);
    fma3(from_bits(1), 0.5Q, 0.0Q);
    fma3(0.0Q, __builtin_infq(), 1.0Q);
    fma3(-0.0Q, 1.0Q, 0.0Q);
    fma3(-0.0Q, 1.0Q, -0.0Q);


    const char *rounds[] = {"floor", "ceil", "trunc", "round", "rint"};
    const __float128 halves[] = {0.5Q, -0.5Q, 1.5Q, 2.5Q, -2.5Q, 0.25Q, -0.75Q, 0x1p112Q + 0.5Q};
    for (int o = 0; o < 5; o++) {
        for (int i = 0; i < n; i++) unary(rounds[o], specials[i]);
        for (int i = 0; i < 8; i++) unary(rounds[o], halves[i]);
        for (int i = 0; i < 30; i++) unary(rounds[o], random_near(between(bias - 3, bias + 115)));
    }

    for (int i = 0; i < n; i++) conversions(specials[i]);
    for (int i = 0; i < 60; i++) conversions(random_near(between(bias - 1100, bias + 1100)));
    for (int i = 0; i < 20; i++) conversions(random_near(between(bias - 16, bias + 130)));
    conversions(0x1.0000000000000800000000000000p0Q); /* a double tie, to even */
    conversions(0x1.0000000000001800000000000000p0Q);
    conversions(0x1.0000000000000800000000000001p0Q);

    from_int(0);
    from_int(1);
    from_int(~(u128)0);
    from_int((u128)1 << 127);
    from_int(((u128)1 << 113) + 1); /* a tie */
    from_int(((u128)1 << 113) + 3);
    for (int i = 0; i < 20; i++) from_int(((u128)next() << 64 | next()) >> between(0, 100));
    return 0;
}

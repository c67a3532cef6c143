//! Cases of the sweep corpus (`vec_*.mir`) with the body llc 22 printed.

use super::{aarch64, check};

/// Fewer elements with a scalar leftover, re-merged through elements.
#[test]
fn mul_v3s64() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $x0, $x1, $x2, $x3, $x4, $x5
    %0:_(s64) = COPY $x0
    %1:_(s64) = COPY $x1
    %2:_(s64) = COPY $x2
    %3:_(<3 x s64>) = G_BUILD_VECTOR %0(s64), %1(s64), %2(s64)
    %4:_(s64) = COPY $x3
    %5:_(s64) = COPY $x4
    %6:_(s64) = COPY $x5
    %7:_(<3 x s64>) = G_BUILD_VECTOR %4(s64), %5(s64), %6(s64)
    %8:_(<3 x s64>) = G_MUL %3(<3 x s64>), %7(<3 x s64>)
    %9:_(s64), %10:_(s64), %11:_(s64) = G_UNMERGE_VALUES %8(<3 x s64>)
    $x0 = COPY %9(s64)
    $x1 = COPY %10(s64)
    $x2 = COPY %11(s64)
    RET_ReallyLR implicit $x0, implicit $x1, implicit $x2
"#,
        r#"  bb.0:
    liveins: $x0, $x1, $x2, $x3, $x4, $x5
    %0:_(s64) = COPY $x0
    %1:_(s64) = COPY $x1
    %2:_(s64) = COPY $x2
    %4:_(s64) = COPY $x3
    %5:_(s64) = COPY $x4
    %6:_(s64) = COPY $x5
    %15:_(<2 x s64>) = G_BUILD_VECTOR %0(s64), %1(s64)
    %19:_(<2 x s64>) = G_BUILD_VECTOR %4(s64), %5(s64)
    %20:_(<2 x s64>) = G_MUL %15, %19
    %21:_(s64) = G_MUL %2, %6
    %22:_(s64), %23:_(s64) = G_UNMERGE_VALUES %20(<2 x s64>)
    $x0 = COPY %22(s64)
    $x1 = COPY %23(s64)
    $x2 = COPY %21(s64)
    RET_ReallyLR implicit $x0, implicit $x1, implicit $x2
"#,
    );
}

/// Fewer elements, even split; the concat/unmerge glue folds.
#[test]
fn add_v8s32() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $q0, $q1, $q2, $q3
    %0:_(<4 x s32>) = COPY $q0
    %1:_(<4 x s32>) = COPY $q1
    %2:_(<8 x s32>) = G_CONCAT_VECTORS %0(<4 x s32>), %1(<4 x s32>)
    %3:_(<4 x s32>) = COPY $q2
    %4:_(<4 x s32>) = COPY $q3
    %5:_(<8 x s32>) = G_CONCAT_VECTORS %3(<4 x s32>), %4(<4 x s32>)
    %6:_(<8 x s32>) = G_ADD %2(<8 x s32>), %5(<8 x s32>)
    %7:_(<4 x s32>), %8:_(<4 x s32>) = G_UNMERGE_VALUES %6(<8 x s32>)
    $q0 = COPY %7(<4 x s32>)
    $q1 = COPY %8(<4 x s32>)
    RET_ReallyLR implicit $q0, implicit $q1
"#,
        r#"  bb.0:
    liveins: $q0, $q1, $q2, $q3
    %0:_(<4 x s32>) = COPY $q0
    %1:_(<4 x s32>) = COPY $q1
    %3:_(<4 x s32>) = COPY $q2
    %4:_(<4 x s32>) = COPY $q3
    %13:_(<4 x s32>) = G_ADD %0, %3
    %14:_(<4 x s32>) = G_ADD %1, %4
    $q0 = COPY %13(<4 x s32>)
    $q1 = COPY %14(<4 x s32>)
    RET_ReallyLR implicit $q0, implicit $q1
"#,
    );
}

/// More elements: operands padded with undef, trailing lanes dropped.
#[test]
fn and_v3s32() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %3:_(<3 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32)
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %7:_(<3 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32)
    %8:_(<3 x s32>) = G_AND %3(<3 x s32>), %7(<3 x s32>)
    %9:_(s32), %10:_(s32), %11:_(s32) = G_UNMERGE_VALUES %8(<3 x s32>)
    $w0 = COPY %9(s32)
    $w1 = COPY %10(s32)
    $w2 = COPY %11(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %15:_(s32) = G_IMPLICIT_DEF
    %16:_(<4 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32), %15(s32)
    %20:_(<4 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32), %15(s32)
    %21:_(<4 x s32>) = G_AND %16, %20
    %22:_(s32), %23:_(s32), %24:_(s32), %25:_(s32) = G_UNMERGE_VALUES %21(<4 x s32>)
    $w0 = COPY %22(s32)
    $w1 = COPY %23(s32)
    $w2 = COPY %24(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
    );
}

/// More elements for a shift.
#[test]
fn shl_v3s32() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %3:_(<3 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32)
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %7:_(<3 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32)
    %8:_(<3 x s32>) = G_SHL %3(<3 x s32>), %7(<3 x s32>)
    %9:_(s32), %10:_(s32), %11:_(s32) = G_UNMERGE_VALUES %8(<3 x s32>)
    $w0 = COPY %9(s32)
    $w1 = COPY %10(s32)
    $w2 = COPY %11(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %15:_(s32) = G_IMPLICIT_DEF
    %16:_(<4 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32), %15(s32)
    %20:_(<4 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32), %15(s32)
    %21:_(<4 x s32>) = G_SHL %16, %20(<4 x s32>)
    %22:_(s32), %23:_(s32), %24:_(s32), %25:_(s32) = G_UNMERGE_VALUES %21(<4 x s32>)
    $w0 = COPY %22(s32)
    $w1 = COPY %23(s32)
    $w2 = COPY %24(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
    );
}

/// More elements on the compared type (index 1).
#[test]
fn icmp_eq_v3s32() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %3:_(<3 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32)
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %7:_(<3 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32)
    %8:_(<3 x s32>) = G_ICMP intpred(eq), %3(<3 x s32>), %7(<3 x s32>)
    %9:_(s32), %10:_(s32), %11:_(s32) = G_UNMERGE_VALUES %8(<3 x s32>)
    $w0 = COPY %9(s32)
    $w1 = COPY %10(s32)
    $w2 = COPY %11(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %15:_(s32) = G_IMPLICIT_DEF
    %16:_(<4 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32), %15(s32)
    %20:_(<4 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32), %15(s32)
    %21:_(<4 x s32>) = G_ICMP intpred(eq), %16(<4 x s32>), %20
    %22:_(s32), %23:_(s32), %24:_(s32), %25:_(s32) = G_UNMERGE_VALUES %21(<4 x s32>)
    $w0 = COPY %22(s32)
    $w1 = COPY %23(s32)
    $w2 = COPY %24(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
    );
}

/// Fewer elements for a compare, predicate repeated.
#[test]
fn icmp_eq_v3s64() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $x0, $x1, $x2, $x3, $x4, $x5
    %0:_(s64) = COPY $x0
    %1:_(s64) = COPY $x1
    %2:_(s64) = COPY $x2
    %3:_(<3 x s64>) = G_BUILD_VECTOR %0(s64), %1(s64), %2(s64)
    %4:_(s64) = COPY $x3
    %5:_(s64) = COPY $x4
    %6:_(s64) = COPY $x5
    %7:_(<3 x s64>) = G_BUILD_VECTOR %4(s64), %5(s64), %6(s64)
    %8:_(<3 x s64>) = G_ICMP intpred(eq), %3(<3 x s64>), %7(<3 x s64>)
    %9:_(s64), %10:_(s64), %11:_(s64) = G_UNMERGE_VALUES %8(<3 x s64>)
    $x0 = COPY %9(s64)
    $x1 = COPY %10(s64)
    $x2 = COPY %11(s64)
    RET_ReallyLR implicit $x0, implicit $x1, implicit $x2
"#,
        r#"  bb.0:
    liveins: $x0, $x1, $x2, $x3, $x4, $x5
    %0:_(s64) = COPY $x0
    %1:_(s64) = COPY $x1
    %2:_(s64) = COPY $x2
    %4:_(s64) = COPY $x3
    %5:_(s64) = COPY $x4
    %6:_(s64) = COPY $x5
    %15:_(s64) = G_IMPLICIT_DEF
    %34:_(<2 x s64>) = G_BUILD_VECTOR %0(s64), %1(s64)
    %35:_(<2 x s64>) = G_BUILD_VECTOR %2(s64), %15(s64)
    %32:_(<2 x s64>) = G_BUILD_VECTOR %4(s64), %5(s64)
    %33:_(<2 x s64>) = G_BUILD_VECTOR %6(s64), %15(s64)
    %30:_(<2 x s64>) = G_ICMP intpred(eq), %34(<2 x s64>), %32
    %31:_(<2 x s64>) = G_ICMP intpred(eq), %35(<2 x s64>), %33
    %22:_(s64), %23:_(s64) = G_UNMERGE_VALUES %30(<2 x s64>)
    %24:_(s64), %25:_(s64) = G_UNMERGE_VALUES %31(<2 x s64>)
    $x0 = COPY %22(s64)
    $x1 = COPY %23(s64)
    $x2 = COPY %24(s64)
    RET_ReallyLR implicit $x0, implicit $x1, implicit $x2
"#,
    );
}

/// ReduceLoadStoreWidth for a vector load with a leftover.
#[test]
fn load_v3s64_a1() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $x0
    %0:_(p0) = COPY $x0
    %1:_(<3 x s64>) = G_LOAD %0(p0) :: (load (<3 x s64>), align 1)
    %2:_(s64), %3:_(s64), %4:_(s64) = G_UNMERGE_VALUES %1(<3 x s64>)
    $x0 = COPY %2(s64)
    $x1 = COPY %3(s64)
    $x2 = COPY %4(s64)
    RET_ReallyLR implicit $x0, implicit $x1, implicit $x2
"#,
        r#"  bb.0:
    liveins: $x0
    %0:_(p0) = COPY $x0
    %5:_(<2 x s64>) = G_LOAD %0(p0) :: (load (<2 x s64>), align 1)
    %7:_(s64) = G_CONSTANT i64 16
    %6:_(p0) = nuw inbounds G_PTR_ADD %0, %7(s64)
    %8:_(s64) = G_LOAD %6(p0) :: (load (s64) from unknown-address + 16, align 1)
    %9:_(s64), %10:_(s64) = G_UNMERGE_VALUES %5(<2 x s64>)
    $x0 = COPY %9(s64)
    $x1 = COPY %10(s64)
    $x2 = COPY %8(s64)
    RET_ReallyLR implicit $x0, implicit $x1, implicit $x2
"#,
    );
}

/// ReduceLoadStoreWidth for a vector store with a leftover.
#[test]
fn store_v3s64_a1() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $x0, $x1, $x2, $x3
    %0:_(p0) = COPY $x0
    %1:_(s64) = COPY $x1
    %2:_(s64) = COPY $x2
    %3:_(s64) = COPY $x3
    %4:_(<3 x s64>) = G_BUILD_VECTOR %1(s64), %2(s64), %3(s64)
    G_STORE %4(<3 x s64>), %0(p0) :: (store (<3 x s64>), align 1)
    RET_ReallyLR
"#,
        r#"  bb.0:
    liveins: $x0, $x1, $x2, $x3
    %0:_(p0) = COPY $x0
    %1:_(s64) = COPY $x1
    %2:_(s64) = COPY $x2
    %3:_(s64) = COPY $x3
    %8:_(<2 x s64>) = G_BUILD_VECTOR %1(s64), %2(s64)
    G_STORE %8(<2 x s64>), %0(p0) :: (store (<2 x s64>), align 1)
    %10:_(s64) = G_CONSTANT i64 16
    %9:_(p0) = nuw inbounds G_PTR_ADD %0, %10(s64)
    G_STORE %3(s64), %9(p0) :: (store (s64) into unknown-address + 16, align 1)
    RET_ReallyLR
"#,
    );
}

/// An even vector load split.
#[test]
fn load_v8s32_a16() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $x0
    %0:_(p0) = COPY $x0
    %1:_(<8 x s32>) = G_LOAD %0(p0) :: (load (<8 x s32>), align 16)
    %2:_(<4 x s32>), %3:_(<4 x s32>) = G_UNMERGE_VALUES %1(<8 x s32>)
    $q0 = COPY %2(<4 x s32>)
    $q1 = COPY %3(<4 x s32>)
    RET_ReallyLR implicit $q0, implicit $q1
"#,
        r#"  bb.0:
    liveins: $x0
    %0:_(p0) = COPY $x0
    %4:_(<4 x s32>) = G_LOAD %0(p0) :: (load (<4 x s32>))
    %6:_(s64) = G_CONSTANT i64 16
    %5:_(p0) = nuw inbounds G_PTR_ADD %0, %6(s64)
    %7:_(<4 x s32>) = G_LOAD %5(p0) :: (load (<4 x s32>) from unknown-address + 16)
    $q0 = COPY %4(<4 x s32>)
    $q1 = COPY %7(<4 x s32>)
    RET_ReallyLR implicit $q0, implicit $q1
"#,
    );
}

/// An even vector store split.
#[test]
fn store_v32s8_a1() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $x0, $q0, $q1
    %0:_(p0) = COPY $x0
    %1:_(<16 x s8>) = COPY $q0
    %2:_(<16 x s8>) = COPY $q1
    %3:_(<32 x s8>) = G_CONCAT_VECTORS %1(<16 x s8>), %2(<16 x s8>)
    G_STORE %3(<32 x s8>), %0(p0) :: (store (<32 x s8>), align 1)
    RET_ReallyLR
"#,
        r#"  bb.0:
    liveins: $x0, $q0, $q1
    %0:_(p0) = COPY $x0
    %1:_(<16 x s8>) = COPY $q0
    %2:_(<16 x s8>) = COPY $q1
    G_STORE %1(<16 x s8>), %0(p0) :: (store (<16 x s8>), align 1)
    %7:_(s64) = G_CONSTANT i64 16
    %6:_(p0) = nuw inbounds G_PTR_ADD %0, %7(s64)
    G_STORE %2(<16 x s8>), %6(p0) :: (store (<16 x s8>) into unknown-address + 16, align 1)
    RET_ReallyLR
"#,
    );
}

/// More elements for G_BUILD_VECTOR.
#[test]
fn build_vector_v3s32() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $w0, $w1, $w2
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %3:_(<3 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32)
    %4:_(s32), %5:_(s32), %6:_(s32) = G_UNMERGE_VALUES %3(<3 x s32>)
    $w0 = COPY %4(s32)
    $w1 = COPY %5(s32)
    $w2 = COPY %6(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
        r#"  bb.0:
    liveins: $w0, $w1, $w2
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    $w0 = COPY %0(s32)
    $w1 = COPY %1(s32)
    $w2 = COPY %2(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
    );
}

/// More elements for a shuffle: mask indices remapped.
#[test]
fn shuffle_v3s32_rev() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %3:_(<3 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32)
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %7:_(<3 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32)
    %8:_(<3 x s32>) = G_SHUFFLE_VECTOR %3(<3 x s32>), %7(<3 x s32>), shufflemask(2, 1, 0)
    %9:_(s32), %10:_(s32), %11:_(s32) = G_UNMERGE_VALUES %8(<3 x s32>)
    $w0 = COPY %9(s32)
    $w1 = COPY %10(s32)
    $w2 = COPY %11(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %15:_(s32) = G_IMPLICIT_DEF
    %16:_(<4 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32), %15(s32)
    %20:_(<4 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32), %15(s32)
    %21:_(<4 x s32>) = G_SHUFFLE_VECTOR %16(<4 x s32>), %20, shufflemask(2, 1, 0, undef)
    %22:_(s32), %23:_(s32), %24:_(s32), %25:_(s32) = G_UNMERGE_VALUES %21(<4 x s32>)
    $w0 = COPY %22(s32)
    $w1 = COPY %23(s32)
    $w2 = COPY %24(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
    );
}

/// More elements for a shuffle with undef lanes.
#[test]
fn shuffle_v3s32_undef() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %3:_(<3 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32)
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %7:_(<3 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32)
    %8:_(<3 x s32>) = G_SHUFFLE_VECTOR %3(<3 x s32>), %7(<3 x s32>), shufflemask(0, undef, 2)
    %9:_(s32), %10:_(s32), %11:_(s32) = G_UNMERGE_VALUES %8(<3 x s32>)
    $w0 = COPY %9(s32)
    $w1 = COPY %10(s32)
    $w2 = COPY %11(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
        r#"  bb.0:
    liveins: $w0, $w1, $w2, $w3, $w4, $w5
    %0:_(s32) = COPY $w0
    %1:_(s32) = COPY $w1
    %2:_(s32) = COPY $w2
    %4:_(s32) = COPY $w3
    %5:_(s32) = COPY $w4
    %6:_(s32) = COPY $w5
    %15:_(s32) = G_IMPLICIT_DEF
    %16:_(<4 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32), %15(s32)
    %20:_(<4 x s32>) = G_BUILD_VECTOR %4(s32), %5(s32), %6(s32), %15(s32)
    %21:_(<4 x s32>) = G_SHUFFLE_VECTOR %16(<4 x s32>), %20, shufflemask(0, undef, 2, undef)
    %22:_(s32), %23:_(s32), %24:_(s32), %25:_(s32) = G_UNMERGE_VALUES %21(<4 x s32>)
    $w0 = COPY %22(s32)
    $w1 = COPY %23(s32)
    $w2 = COPY %24(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2
"#,
    );
}

/// A shuffle whose result is shorter than its sources.
#[test]
fn shuffle_v8s8_half() {
    check(
        &aarch64(),
        r#"  bb.0:
    liveins: $d0, $d1
    %0:_(<8 x s8>) = COPY $d0
    %1:_(<8 x s8>) = COPY $d1
    %2:_(<4 x s8>) = G_SHUFFLE_VECTOR %0(<8 x s8>), %1(<8 x s8>), shufflemask(1, 3, 5, 7)
    %3:_(s8), %4:_(s8), %5:_(s8), %6:_(s8) = G_UNMERGE_VALUES %2(<4 x s8>)
    %7:_(s32) = G_ANYEXT %3(s8)
    $w0 = COPY %7(s32)
    %8:_(s32) = G_ANYEXT %4(s8)
    $w1 = COPY %8(s32)
    %9:_(s32) = G_ANYEXT %5(s8)
    $w2 = COPY %9(s32)
    %10:_(s32) = G_ANYEXT %6(s8)
    $w3 = COPY %10(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2, implicit $w3
"#,
        r#"  bb.0:
    liveins: $d0, $d1
    %0:_(<8 x s8>) = COPY $d0
    %1:_(<8 x s8>) = COPY $d1
    %11:_(<8 x s8>) = G_SHUFFLE_VECTOR %0(<8 x s8>), %1, shufflemask(1, 3, 5, 7, undef, undef, undef, undef)
    %22:_(s8), %23:_(s8), %24:_(s8), %25:_(s8), %26:_(s8), %27:_(s8), %28:_(s8), %29:_(s8) = G_UNMERGE_VALUES %11(<8 x s8>)
    %7:_(s32) = G_ANYEXT %22(s8)
    $w0 = COPY %7(s32)
    %8:_(s32) = G_ANYEXT %23(s8)
    $w1 = COPY %8(s32)
    %9:_(s32) = G_ANYEXT %24(s8)
    $w2 = COPY %9(s32)
    %10:_(s32) = G_ANYEXT %25(s8)
    $w3 = COPY %10(s32)
    RET_ReallyLR implicit $w0, implicit $w1, implicit $w2, implicit $w3
"#,
    );
}

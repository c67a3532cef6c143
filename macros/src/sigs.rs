//! What the DSL may call: every `RuleSet` builder method, predicate
//! constructor and mutation constructor of gisel-core, with its parameters
//! and what it means for the checks (action, coverage, shape, whether it
//! always fires).

/// One parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P {
    /// A type index (integer literal).
    Idx,
    /// A memory-operand index (integer literal).
    MemIdx,
    /// A number (integer literal or `{ expr }`).
    Num,
    /// One type.
    Ty,
    /// A predicate.
    Pred,
    /// A mutation.
    Mut,
    /// One bracketed list of types or tuples: `[s32, s64]`.
    TypeSet,
    /// An atomic ordering name (`Acquire`).
    Ordering,
    /// The rest: types or tuples (`legal_for(s32, (s64, p0))`).
    Types,
    /// The rest: bracketed lists (`legal_for_cartesian_product([s32], [p0])`).
    Lists,
    /// The rest: `(type0, type1, memory type, align bits)` entries.
    MemDescs,
    /// The rest: predicates (`all(p, q)`).
    Preds,
}

impl P {
    /// Takes every remaining argument.
    pub fn is_rest(self) -> bool {
        matches!(self, Types | Lists | MemDescs | Preds)
    }

    /// What an argument should look like, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Idx => "a type index",
            MemIdx => "a memory-operand index",
            Num => "a number",
            Ty => "a type",
            Pred => "a predicate",
            Mut => "a mutation",
            TypeSet => "a list of types `[..]`",
            Ordering => "an atomic ordering",
            Types => "types",
            Lists => "lists of types",
            MemDescs => "memory descriptors",
            Preds => "predicates",
        }
    }
}

/// The action a method's rules answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// Legal.
    Legal,
    /// Lower.
    Lower,
    /// Libcall.
    Libcall,
    /// Custom.
    Custom,
    /// Unsupported.
    Unsupported,
    /// WidenScalar.
    Widen,
    /// NarrowScalar.
    Narrow,
    /// Widen then narrow (the clamps).
    Clamp,
    /// MoreElements.
    More,
    /// FewerElements.
    Fewer,
    /// MoreElements then FewerElements.
    ClampElements,
    /// Bitcast.
    Bitcast,
    /// UseLegacyRules.
    Fallback,
    /// No rule (`imm_idx`).
    Meta,
}

/// Which type indices a method marks covered (LLVM's `typeIdx()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// The first type-index parameter.
    Idx,
    /// 0 .. the arity of the type list.
    List,
    /// 0 .. max(number of lists, 2).
    Product,
    /// Every index.
    All,
    /// Indices 0 and 1.
    Pair,
    /// None.
    Nothing,
}

/// What kind of type the method's index parameter must be able to hold
/// for the rule to ever apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Anything.
    Any,
    /// A plain scalar (the predicate tests `is_scalar`).
    Scalar,
    /// A vector.
    Vector,
}

/// A builder method.
#[derive(Debug)]
pub struct Method {
    /// snake_case name, as in gisel-core.
    pub name: &'static str,
    /// Parameters in order.
    pub params: &'static [P],
    /// How many trailing `Num` parameters may be left out (default 0).
    pub defaults: usize,
    /// The action.
    pub act: Act,
    /// Coverage.
    pub cover: Cover,
    /// What the index parameter must be able to hold.
    pub shape: Shape,
    /// The rule applies whatever the query (rules after it are dead).
    pub always: bool,
    /// Looks at memory operand 0.
    pub mem: bool,
}

/// A predicate or mutation constructor.
#[derive(Debug)]
pub struct Fun {
    /// snake_case name, as in gisel-core.
    pub name: &'static str,
    /// Parameters in order.
    pub params: &'static [P],
    /// How many trailing `Num` parameters may be left out (default 0).
    pub defaults: usize,
}

const fn m(name: &'static str, params: &'static [P], act: Act, cover: Cover) -> Method {
    Method { name, params, defaults: 0, act, cover, shape: Shape::Any, always: false, mem: false }
}

const fn always(mut method: Method) -> Method {
    method.always = true;
    method
}

const fn mem(mut method: Method) -> Method {
    method.mem = true;
    method
}

const fn shape(mut method: Method, shape: Shape) -> Method {
    method.shape = shape;
    method
}

const fn default1(mut method: Method) -> Method {
    method.defaults = 1;
    method
}

use Act as A;
use Cover as C;
use P::*;
use Shape as S;

/// Every `RuleSet` builder method the DSL accepts (`when` and `action_if`
/// are replaced by `if` blocks and the named methods).
pub static METHODS: &[Method] = &[
    m("imm_idx", &[Num], A::Meta, C::Nothing),
    always(m("fallback", &[], A::Fallback, C::Nothing)),
    m("legal_if", &[Pred], A::Legal, C::All),
    m("legal_for", &[Types], A::Legal, C::List),
    m("legal_for_type_with_any_imm", &[Types], A::Legal, C::All),
    mem(m("legal_for_types_with_mem_desc", &[MemDescs], A::Legal, C::Pair)),
    m("legal_for_cartesian_product", &[Lists], A::Legal, C::Product),
    always(m("always_legal", &[], A::Legal, C::All)),
    m("bitcast_if", &[Pred, Mut], A::Bitcast, C::All),
    always(m("lower", &[], A::Lower, C::All)),
    m("lower_if", &[Pred], A::Lower, C::All),
    m("lower_if_with", &[Pred, Mut], A::Lower, C::All),
    m("lower_for", &[Types], A::Lower, C::List),
    m("lower_for_with", &[TypeSet, Mut], A::Lower, C::List),
    m("lower_for_cartesian_product", &[Lists], A::Lower, C::Product),
    mem(m("lower_if_mem_size_not_pow2", &[], A::Lower, C::Nothing)),
    mem(m("lower_if_mem_size_not_byte_size_pow2", &[], A::Lower, C::Nothing)),
    always(m("libcall", &[], A::Libcall, C::All)),
    m("libcall_if", &[Pred], A::Libcall, C::All),
    m("libcall_for", &[Types], A::Libcall, C::List),
    m("libcall_for_cartesian_product", &[Lists], A::Libcall, C::Product),
    always(m("custom", &[], A::Custom, C::All)),
    m("custom_if", &[Pred], A::Custom, C::All),
    m("custom_for", &[Types], A::Custom, C::List),
    m("custom_for_cartesian_product", &[Lists], A::Custom, C::Product),
    always(m("unsupported", &[], A::Unsupported, C::All)),
    m("unsupported_if", &[Pred], A::Unsupported, C::Nothing),
    m("unsupported_for", &[Types], A::Unsupported, C::List),
    mem(m("unsupported_if_mem_size_not_pow2", &[], A::Unsupported, C::Nothing)),
    m("widen_scalar_if", &[Pred, Mut], A::Widen, C::All),
    default1(shape(m("widen_scalar_to_next_pow2", &[Idx, Num], A::Widen, C::Idx), S::Scalar)),
    shape(m("widen_scalar_to_next_multiple_of", &[Idx, Num], A::Widen, C::Idx), S::Scalar),
    default1(m("widen_scalar_or_elt_to_next_pow2", &[Idx, Num], A::Widen, C::Idx)),
    default1(m("widen_scalar_or_elt_to_next_pow2_or_min_size", &[Idx, Num], A::Widen, C::Idx)),
    shape(m("min_scalar", &[Idx, Ty], A::Widen, C::Idx), S::Scalar),
    shape(m("min_scalar_if", &[Pred, Idx, Ty], A::Widen, C::Idx), S::Scalar),
    m("min_scalar_or_elt", &[Idx, Ty], A::Widen, C::Idx),
    m("min_scalar_or_elt_if", &[Pred, Idx, Ty], A::Widen, C::Idx),
    m("min_scalar_same_as", &[Idx, Idx], A::Widen, C::Idx),
    m("min_scalar_elt_same_as_if", &[Pred, Idx, Idx], A::Widen, C::Idx),
    shape(m("widen_vector_elts_to_vector_min_size", &[Idx, Num], A::Widen, C::Idx), S::Vector),
    m("narrow_scalar_if", &[Pred, Mut], A::Narrow, C::All),
    m("narrow_scalar_for", &[TypeSet, Mut], A::Narrow, C::List),
    shape(m("narrow_scalar", &[Idx, Mut], A::Narrow, C::Idx), S::Scalar),
    shape(m("max_scalar", &[Idx, Ty], A::Narrow, C::Idx), S::Scalar),
    shape(m("max_scalar_if", &[Pred, Idx, Ty], A::Narrow, C::Idx), S::Scalar),
    m("max_scalar_or_elt", &[Idx, Ty], A::Narrow, C::Idx),
    m("max_scalar_same_as", &[Idx, Idx], A::Narrow, C::Idx),
    m("max_scalar_elt_same_as_if", &[Pred, Idx, Idx], A::Narrow, C::Idx),
    shape(m("clamp_scalar", &[Idx, Ty, Ty], A::Clamp, C::Idx), S::Scalar),
    m("clamp_scalar_or_elt", &[Idx, Ty, Ty], A::Clamp, C::Idx),
    m("scalar_same_size_as", &[Idx, Idx], A::Clamp, C::Idx),
    m("more_elements_if", &[Pred, Mut], A::More, C::All),
    shape(m("more_elements_to_next_pow2", &[Idx], A::More, C::Idx), S::Vector),
    shape(m("clamp_min_num_elements", &[Idx, Ty, Num], A::More, C::Idx), S::Vector),
    shape(m("align_num_elements_to", &[Idx, Ty, Num], A::More, C::Idx), S::Vector),
    m("fewer_elements_if", &[Pred, Mut], A::Fewer, C::All),
    shape(m("clamp_max_num_elements", &[Idx, Ty, Num], A::Fewer, C::Idx), S::Vector),
    shape(m("clamp_max_num_elements_strict", &[Idx, Ty, Num], A::ClampElements, C::Idx), S::Vector),
    shape(m("clamp_num_elements", &[Idx, Ty, Ty], A::ClampElements, C::Idx), S::Vector),
    shape(m("scalarize", &[Idx], A::Fewer, C::Idx), S::Vector),
    shape(m("scalarize_if", &[Pred, Idx], A::Fewer, C::Idx), S::Vector),
];

const fn f(name: &'static str, params: &'static [P]) -> Fun {
    Fun { name, params, defaults: 0 }
}

/// Every predicate constructor of `gisel_core::legality::predicates`
/// except `custom` (a closure or function path stands for it) and
/// `type_pair_and_mem_desc_in_set` (use `legal_for_types_with_mem_desc`).
pub static PREDICATES: &[Fun] = &[
    f("always", &[]),
    f("not", &[Pred]),
    f("all", &[Preds]),
    f("any", &[Preds]),
    f("type_is", &[Idx, Ty]),
    f("type_is_not", &[Idx, Ty]),
    f("type_in_set", &[Idx, TypeSet]),
    f("type_pair_in_set", &[Idx, Idx, TypeSet]),
    f("type_tuple_in_set", &[Idx, Idx, Idx, TypeSet]),
    f("is_scalar", &[Idx]),
    f("is_vector", &[Idx]),
    f("is_pointer", &[Idx]),
    f("is_pointer_in", &[Idx, Num]),
    f("is_pointer_vector", &[Idx]),
    f("element_type_is", &[Idx, Ty]),
    f("scalar_narrower_than", &[Idx, Num]),
    f("scalar_wider_than", &[Idx, Num]),
    f("scalar_or_elt_narrower_than", &[Idx, Num]),
    f("scalar_or_elt_wider_than", &[Idx, Num]),
    f("vector_element_count_is_greater_than", &[Idx, Num]),
    f("vector_element_count_is_less_than_or_equal_to", &[Idx, Num]),
    f("size_not_multiple_of", &[Idx, Num]),
    f("size_not_pow2", &[Idx]),
    f("scalar_or_elt_size_not_pow2", &[Idx]),
    f("size_is", &[Idx, Num]),
    f("same_size", &[Idx, Idx]),
    f("larger_than", &[Idx, Idx]),
    f("smaller_than", &[Idx, Idx]),
    f("mem_size_in_bytes_not_pow2", &[MemIdx]),
    f("mem_size_not_byte_size_pow2", &[MemIdx]),
    f("num_elements_not_pow2", &[Idx]),
    f("atomic_ordering_at_least_or_stronger_than", &[MemIdx, Ordering]),
];

/// Every mutation constructor of `gisel_core::legality::mutations` except
/// `custom` (a closure or function path stands for it).
pub static MUTATIONS: &[Fun] = &[
    f("change_to", &[Idx, Ty]),
    f("change_to_type_of", &[Idx, Idx]),
    f("change_element_to", &[Idx, Ty]),
    f("change_element_to_element_of", &[Idx, Idx]),
    f("change_element_count_to", &[Idx, Num]),
    f("change_element_count_to_scalable", &[Idx, Num]),
    f("change_element_count_to_count_of", &[Idx, Idx]),
    f("change_element_size_to", &[Idx, Idx]),
    Fun { name: "widen_scalar_or_elt_to_next_pow2", params: &[Idx, Num], defaults: 1 },
    f("widen_scalar_or_elt_to_next_multiple_of", &[Idx, Num]),
    Fun { name: "more_elements_to_next_pow2", params: &[Idx, Num], defaults: 1 },
    f("scalarize", &[Idx]),
];

/// The atomic orderings, as `AtomicOrdering` variants.
pub static ORDERINGS: &[&str] =
    &["NotAtomic", "Unordered", "Monotonic", "Acquire", "Release", "AcquireRelease", "SequentiallyConsistent"];

/// Levenshtein distance, for "did you mean".
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// `; did you mean `x`?` for the closest of `names`, or nothing.
pub fn did_you_mean<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> String {
    let best = names.map(|n| (edit_distance(name, n), n)).min();
    match best {
        Some((d, n)) if d <= 3.max(name.len() / 3) => format!("; did you mean `{n}`?"),
        _ => String::new(),
    }
}

/// The method named `name`.
pub fn method(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("legal_fro", METHODS.iter().map(|m| m.name)), "; did you mean `legal_for`?");
        assert_eq!(did_you_mean("zzzzzzzzzzzzzzzz", METHODS.iter().map(|m| m.name)), "");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}

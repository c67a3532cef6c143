//! One rule ([`Rule`]: predicate, action, optional mutation, and the
//! builder call that made it) and the type lists builder methods take
//! ([`TypeList`]).

use std::fmt;
use std::panic::RefUnwindSafe;
use std::sync::Arc;

use super::action::{LegalizeAction, LegalizeStep};
use super::mutation::Mutation;
use super::predicate::{Pair, Predicate, Triple, type_list};
use super::query::LegalityQuery;
use crate::ty::Llt;

/// One rule of a rule set: when `predicate` holds, answer `action`, with
/// the type change `mutation` computes.
#[derive(Clone, Debug)]
pub struct Rule {
    /// When the rule applies.
    pub predicate: Predicate,
    /// What it answers.
    pub action: LegalizeAction,
    /// The type change, for type-changing actions.
    pub mutation: Option<Mutation>,
    /// The builder call that created the rule (`clamp_scalar(0, s32, s64)`);
    /// one call may create several rules.
    pub origin: Origin,
}

/// How a rule was written, the builder call and its arguments, made into
/// text only when something shows it (explanations, checks, errors):
/// formatting every rule's type lists up front cost a small run more than
/// building the rules did.
#[derive(Clone)]
pub struct Origin(Arc<dyn Fn(&mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + RefUnwindSafe>);

impl Origin {
    /// The origin that `show` prints.
    pub fn new(
        show: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result + Send + Sync + RefUnwindSafe + 'static,
    ) -> Origin {
        Origin(Arc::new(show))
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

impl fmt::Debug for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string())
    }
}

impl Rule {
    /// The step the rule gives for a query it matches.
    pub fn step(&self, q: &LegalityQuery<'_>) -> LegalizeStep {
        match &self.mutation {
            Some(m) => {
                let (idx, ty) = m.apply(q);
                LegalizeStep::with_type(self.action, idx, ty)
            }
            None => LegalizeStep::new(self.action),
        }
    }
}

impl fmt::Display for Rule {
    /// `WidenScalar if scalar_narrower_than(0, 32) => change_to(0, s32)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} if {}", self.action, self.predicate)?;
        if let Some(m) = &self.mutation {
            write!(f, " => {m}")?;
        }
        Ok(())
    }
}

/// The list forms a `*_for` builder method takes: single types (type index
/// 0), pairs (indices 0 and 1) or triples (0, 1, 2). Arrays, slices and
/// vectors of `Llt`, `(Llt, Llt)` and `(Llt, Llt, Llt)` convert into it, so
/// one method covers LLVM's overloads: `legal_for([s32, s64])`,
/// `legal_for([(s32, s64)])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeList {
    /// Types for index 0.
    Types(Vec<Llt>),
    /// Pairs for indices 0 and 1.
    Pairs(Vec<(Llt, Llt)>),
    /// Triples for indices 0, 1 and 2.
    Triples(Vec<(Llt, Llt, Llt)>),
}

impl TypeList {
    /// The membership predicate on indices 0 / 0,1 / 0,1,2.
    pub fn predicate(&self) -> Predicate {
        match self {
            TypeList::Types(t) => Predicate::TypeInSet(0, t.as_slice().into()),
            TypeList::Pairs(p) => Predicate::TypePairInSet(0, 1, p.as_slice().into()),
            TypeList::Triples(t) => Predicate::TypeTupleInSet(0, 1, 2, t.as_slice().into()),
        }
    }

    /// How many type indices an entry names.
    pub fn arity(&self) -> u8 {
        match self {
            TypeList::Types(_) => 1,
            TypeList::Pairs(_) => 2,
            TypeList::Triples(_) => 3,
        }
    }
}

impl fmt::Display for TypeList {
    /// The entries separated by commas, as written in a builder call.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = match self {
            TypeList::Types(t) => t.iter().map(Llt::to_string).collect(),
            TypeList::Pairs(p) => p.iter().map(|&(a, b)| Pair(a, b).to_string()).collect(),
            TypeList::Triples(t) => t.iter().map(|&(a, b, c)| Triple(a, b, c).to_string()).collect(),
        };
        f.write_str(&items.join(", "))
    }
}

macro_rules! type_list_from {
    ($variant:ident, $item:ty) => {
        impl<const N: usize> From<[$item; N]> for TypeList {
            fn from(items: [$item; N]) -> TypeList {
                TypeList::$variant(items.to_vec())
            }
        }
        impl<const N: usize> From<&[$item; N]> for TypeList {
            fn from(items: &[$item; N]) -> TypeList {
                TypeList::$variant(items.to_vec())
            }
        }
        impl From<&[$item]> for TypeList {
            fn from(items: &[$item]) -> TypeList {
                TypeList::$variant(items.to_vec())
            }
        }
        impl From<Vec<$item>> for TypeList {
            fn from(items: Vec<$item>) -> TypeList {
                TypeList::$variant(items)
            }
        }
    };
}

type_list_from!(Types, Llt);
type_list_from!(Pairs, (Llt, Llt));
type_list_from!(Triples, (Llt, Llt, Llt));

/// Prints a cartesian-product argument: `[s32, s64], [p0]`.
pub(crate) fn product_text(lists: &[&[Llt]]) -> String {
    lists.iter().map(|l| type_list(l)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opcode::Opcode;

    #[test]
    fn lists_convert_and_print() {
        let s32 = Llt::scalar(32);
        let p0 = Llt::pointer(0, 64);
        let list: TypeList = [(s32, p0)].into();
        assert_eq!(list.to_string(), "(s32, p0)");
        assert_eq!(list.arity(), 2);
        let (yes, no) = ([s32, p0], [p0, s32]);
        let q = LegalityQuery::new(Opcode::G_PTR_ADD, &yes);
        assert!(list.predicate().matches(&q));
        let q = LegalityQuery::new(Opcode::G_PTR_ADD, &no);
        assert!(!list.predicate().matches(&q));
        let list: TypeList = vec![s32].into();
        assert_eq!(list.arity(), 1);
        assert_eq!(product_text(&[&[s32], &[p0, s32]]), "[s32], [p0, s32]");
    }
}

//! Operands and memory operands of the body language.

use super::MirError;
use super::body::{RegKind, VRegTable};
use super::cursor::{Cursor, is_ident_byte};
use super::module::Arch;
use super::target_names::{has_register, has_register_class_or_bank, register_class};
use crate::apint::ApInt;
use crate::ir::{
    AtomicOrdering, Block, FloatPredicate, FpConst, FpKind, FrameRef, Function, InstData, IntPredicate, MemFlags,
    MemOperand, MemSize, Operand, Reg, RegFlags, RegOperand, SymbolOffset, VReg, natural_alignment,
};
use crate::ty::Llt;
use rustc_hash::FxHashMap;

/// The register flag spelled `word`, if it is one.
fn register_flag(word: &str) -> Option<RegFlags> {
    Some(match word {
        "implicit-def" => RegFlags::IMPLICIT | RegFlags::DEF,
        "implicit" => RegFlags::IMPLICIT,
        "def" => RegFlags::DEF,
        "dead" => RegFlags::DEAD,
        "killed" => RegFlags::KILLED,
        "undef" => RegFlags::UNDEF,
        "internal" => RegFlags::INTERNAL,
        "early-clobber" => RegFlags::EARLY_CLOBBER,
        "debug-use" => RegFlags::DEBUG_USE,
        "renamable" => RegFlags::RENAMABLE,
        _ => return None,
    })
}

/// Annotations written after the operands, each followed by one value.
const ANNOTATIONS: [&str; 7] = [
    "pre-instr-symbol",
    "post-instr-symbol",
    "heap-alloc-marker",
    "pcsections",
    "mmra",
    "cfi-type",
    "debug-instr-number",
];

/// Parses operands of one line into a function.
pub(super) struct OperandParser<'f, 't> {
    pub(super) func: &'f mut Function,
    pub(super) vregs: &'f mut VRegTable<'t>,
    /// The body's blocks by number.
    pub(super) blocks: &'f FxHashMap<u32, Block>,
    pub(super) pointer_bits: &'f dyn Fn(u32) -> u32,
    /// The target whose registers and classes are checked, if known.
    pub(super) arch: Option<Arch>,
    pub(super) cursor: Cursor<'t>,
}

impl<'t> OperandParser<'_, 't> {
    pub(super) fn starts_with_register_flag(&mut self) -> bool {
        self.cursor.peek_ident().and_then(register_flag).is_some()
    }

    /// `%bb.N`.
    pub(super) fn block_ref(&mut self) -> Result<Block, MirError> {
        let start = self.cursor.pos();
        if !self.cursor.eat("%bb.") {
            return Err(self.cursor.error_here("expected a block reference '%bb.N'"));
        }
        let number = self.cursor.unsigned().ok_or_else(|| self.cursor.error_here("expected a block number"))?;
        // `%bb.1.name` may carry the IR name; skip it.
        if self.cursor.eat_attached(b'.') {
            self.cursor.name_after_sigil();
        }
        let span = start..self.cursor.pos();
        u32::try_from(number)
            .ok()
            .and_then(|n| self.blocks.get(&n).copied())
            .ok_or_else(|| self.cursor.error(span, format!("use of undefined machine basic block #{number}")))
    }

    /// `$name`, returning the name without `$`; a name the target does
    /// not have is an error, as in llc.
    pub(super) fn physical_register_name(&mut self) -> Result<&'t str, MirError> {
        let start = self.cursor.pos();
        if !self.cursor.eat("$") {
            return Err(self.cursor.error_here("expected a physical register such as '$x0'"));
        }
        let name = self
            .cursor
            .name_after_sigil()
            .ok_or_else(|| self.cursor.error_here("expected a register name after '$'"))?;
        if self.arch.is_some_and(|arch| !has_register(arch, name)) {
            return Err(self.cursor.error(start..self.cursor.pos(), format!("unknown register name '{name}'")));
        }
        Ok(name)
    }

    /// A register operand with its flags, subregister, class, type and tie.
    pub(super) fn register_operand(&mut self, before_equals: bool) -> Result<Operand, MirError> {
        let mut flags = if before_equals { RegFlags::DEF } else { RegFlags::NONE };
        // Flags are lower-case words; a register starts with a sigil.
        while self.cursor.peek_byte().is_some_and(|b| b.is_ascii_lowercase())
            && let Some(word) = self.cursor.peek_ident()
        {
            let Some(flag) = register_flag(word) else { break };
            flags.insert(flag);
            self.cursor.advance(word.len());
        }
        // The flag loop left the cursor past any spaces.
        let start = self.cursor.pos();
        let reg = match self.cursor.rest_bytes().first() {
            Some(b'$') => Reg::Physical(self.physical_register_symbol()?),
            Some(b'%') => {
                self.cursor.advance(1);
                Reg::Virtual(self.vreg_after_percent(start)?)
            }
            Some(b'_') if self.cursor.eat_word("_") => Reg::Physical(self.func.names.intern("noreg")),
            _ => return Err(self.cursor.error_here("expected a register")),
        };
        let subreg = if self.cursor.eat_attached(b'.') {
            let name = self.cursor.ident().ok_or_else(|| self.cursor.error_here("expected a subregister index"))?;
            Some(self.func.names.intern(name))
        } else {
            None
        };
        if self.cursor.eat_attached(b':') {
            let name_start = self.cursor.pos();
            let name = match self.cursor.rest_bytes() {
                // The generic bank, as nearly every register is written.
                [b'_', rest @ ..] if rest.first().is_none_or(|next| !is_ident_byte(*next)) => {
                    self.cursor.advance(1);
                    "_"
                }
                _ => {
                    let name = self.cursor.name_after_sigil();
                    match name {
                        Some(name) if self.arch.is_none_or(|arch| has_register_class_or_bank(arch, name)) => name,
                        _ => {
                            let span = name_start..self.cursor.pos().max(name_start + 1);
                            let message = "expected '_', register class, or register bank name";
                            return Err(self.cursor.error(span, message));
                        }
                    }
                }
            };
            if let Reg::Virtual(v) = reg {
                self.note_class_or_bank(v, name, name_start)?;
                if name != "_" {
                    let symbol = self.func.names.intern(name);
                    self.func.vreg_mut(v).class = Some(symbol);
                }
            }
        }
        let mut tied_def = None;
        let mut typed = false;
        while self.cursor.eat_attached(b'(') {
            if self.cursor.eat("tied-def") {
                let n = self.cursor.unsigned().ok_or_else(|| self.cursor.error_here("expected an operand index"))?;
                tied_def = Some(u8::try_from(n).map_err(|_| self.cursor.error_here("operand index out of range"))?);
            } else {
                let type_start = self.cursor.pos();
                let text = self.cursor.balanced_until_close()?;
                let ty = Llt::parse_with(text, self.pointer_bits)
                    .map_err(|e| self.cursor.error(type_start..type_start + text.len(), e.to_string()))?;
                if let Reg::Virtual(v) = reg {
                    self.set_vreg_type(v, ty, type_start..type_start + text.len())?;
                }
                typed = true;
            }
            self.cursor.expect(")", "after the tied operand index")?;
        }
        // llc takes a generic register's type from each definition that
        // writes it, and from no other operand.
        if let Reg::Virtual(v) = reg
            && flags.contains(RegFlags::DEF)
            && !typed
            && self.vregs.kinds[v.index()].needs_type()
        {
            return Err(self.cursor.error_here("generic virtual registers must have a type"));
        }
        Ok(Operand::Reg(RegOperand { reg, flags, subreg, tied_def }))
    }

    /// Records that `v` was written with the class or bank `name` (at
    /// `at`), which must agree with what it was said to be before, in
    /// llc's words when it does not.
    fn note_class_or_bank(&mut self, v: VReg, name: &'t str, at: usize) -> Result<(), MirError> {
        let new = RegKind::of(name, self.arch);
        let kind = &mut self.vregs.kinds[v.index()];
        // Without the target, a class cannot be told from a bank.
        let Some(arch) = self.arch else {
            *kind = new;
            return Ok(());
        };
        let conflict = match (*kind, new) {
            (RegKind::Unknown, _) => None,
            (old, new) if old == new => None,
            (RegKind::Class(old), RegKind::Class(_)) => {
                let old = register_class(arch, old).map_or(old, |class| class.name);
                Some(format!("conflicting register classes, previously: {old}"))
            }
            (RegKind::Generic | RegKind::Bank(_), RegKind::Class(_)) => {
                Some("register class specification on generic register".to_owned())
            }
            (RegKind::Class(_), _) => Some("register bank specification on normal register".to_owned()),
            _ => Some("conflicting generic register banks".to_owned()),
        };
        if let Some(message) = conflict {
            return Err(self.cursor.error(at..at + name.len(), message));
        }
        *kind = new;
        Ok(())
    }

    fn physical_register_symbol(&mut self) -> Result<crate::ir::Symbol, MirError> {
        let name = self.physical_register_name()?;
        Ok(self.func.names.intern(name))
    }

    /// The vreg named after an already consumed `%`.
    fn vreg_after_percent(&mut self, start: usize) -> Result<VReg, MirError> {
        // `%12` is numbered (digits only, as LLVM lexes it); `%name` is named
        // (it starts with no digit, or is quoted).
        let (name, numbered) = match self.cursor.digits() {
            Some(digits) => (digits, true),
            None => {
                let name = self
                    .cursor
                    .name_after_sigil()
                    .ok_or_else(|| self.cursor.error_here("expected a virtual register name"))?;
                (name, false)
            }
        };
        let span = start..self.cursor.pos();
        let VRegTable { by_name, first_seen, kinds, written } = &mut *self.vregs;
        let func = &mut *self.func;
        Ok(by_name.get_or_insert_with(name, || {
            let v = func.new_vreg(Llt::INVALID);
            if !numbered {
                func.set_vreg_name(v, name);
            }
            first_seen.push(span);
            kinds.push(RegKind::Unknown);
            written.push(name);
            v
        }))
    }

    fn set_vreg_type(&mut self, v: VReg, ty: Llt, span: std::ops::Range<usize>) -> Result<(), MirError> {
        let info = self.func.vreg_mut(v);
        if info.ty.is_valid() && info.ty != ty {
            let message = format!("inconsistent type for generic virtual register: was {}, now {ty}", info.ty);
            return Err(MirError::new(message, span));
        }
        info.ty = ty;
        Ok(())
    }

    /// Operands after the opcode, then annotations and the debug location.
    pub(super) fn operands_and_annotations(&mut self, inst: &mut InstData) -> Result<(), MirError> {
        let mut first = true;
        loop {
            if self.cursor.at_end() || self.cursor.rest_trimmed().starts_with("::") {
                return Ok(());
            }
            if !first {
                self.cursor.expect(",", "between operands")?;
            }
            first = false;
            match self.trailing_keyword() {
                Some("debug-location") => {
                    self.cursor.advance("debug-location".len());
                    let start = self.cursor.pos();
                    self.metadata_text()?;
                    inst.debug_loc = Some(self.cursor.rest_from(start).trim().into());
                }
                Some(keyword) => {
                    self.cursor.advance(keyword.len());
                    let start = self.cursor.pos();
                    self.annotation_value()?;
                    inst.push_annotation(format!("{keyword} {}", self.cursor.rest_from(start).trim()).into());
                }
                None => {
                    let operand = self.operand()?;
                    inst.operands.push(operand);
                }
            }
        }
    }

    /// `debug-location` or an annotation keyword at the cursor, if one is
    /// there. Each is a lower-case word, which no register, number or
    /// sigil starts with, so the first byte rules out most operands.
    #[inline]
    fn trailing_keyword(&mut self) -> Option<&'t str> {
        if !self.cursor.peek_byte().is_some_and(|b| b.is_ascii_lowercase()) {
            return None;
        }
        self.cursor.peek_ident().filter(|word| *word == "debug-location" || ANNOTATIONS.contains(word))
    }

    fn annotation_value(&mut self) -> Result<(), MirError> {
        match self.cursor.peek() {
            Some('!') => self.metadata_text(),
            Some('<') => self.angle_text().map(|_| ()),
            _ => {
                self.cursor.unsigned().map(|_| ()).ok_or_else(|| self.cursor.error_here("expected an annotation value"))
            }
        }
    }

    /// One operand after the opcode.
    fn operand(&mut self) -> Result<Operand, MirError> {
        let start = self.cursor.pos();
        match self.cursor.peek() {
            Some('%') => {
                let rest = self.cursor.rest_bytes();
                // `%12`: a numbered register, none of the named references below.
                if rest.get(1).is_some_and(u8::is_ascii_digit) {
                    return self.register_operand(false);
                }
                if rest.starts_with(b"%bb.") {
                    return self.block_ref().map(Operand::Block);
                }
                for (prefix, fixed) in [("%stack.", false), ("%fixed-stack.", true)] {
                    if self.cursor.eat(prefix) {
                        return self.frame_ref(fixed);
                    }
                }
                if self.cursor.eat("%const.") {
                    let index = self.index("constant-pool index")?;
                    let offset = self.offset()?;
                    return Ok(Operand::ConstantPool { index, offset });
                }
                if self.cursor.eat("%jump-table.") {
                    return Ok(Operand::JumpTable(self.index("jump-table index")?));
                }
                if self.cursor.eat("%subreg.") {
                    let name =
                        self.cursor.ident().ok_or_else(|| self.cursor.error_here("expected a subregister index"))?;
                    return Ok(Operand::SubRegIndex(self.func.names.intern(name)));
                }
                self.register_operand(false)
            }
            Some('$') | Some('_') => self.register_operand(false),
            Some('-' | '0'..='9') => {
                let value = self.cursor.integer().ok_or_else(|| self.cursor.error_here("expected an immediate"))?;
                let value = i64::try_from(value)
                    .map_err(|_| self.cursor.error(start..self.cursor.pos(), "immediate out of range"))?;
                if self.cursor.rest_trimmed().starts_with("/*") {
                    // An immediate with the comment llc prints after it
                    // (`0 /* attdialect */` on INLINEASM), kept as written.
                    let comment = self.cursor.rest_trimmed();
                    let Some(close) = comment.find("*/") else {
                        return Err(self.cursor.error_here("expected '*/' to end the comment"));
                    };
                    let end = self.cursor.pos() + (self.cursor.rest().len() - comment.len()) + close + 2;
                    self.cursor.set_pos(end);
                    return Ok(Operand::Verbatim(self.cursor.rest_from(start).trim().into()));
                }
                Ok(Operand::Imm(value))
            }
            Some('@') => {
                self.cursor.eat("@");
                let name =
                    self.cursor.name_after_sigil().ok_or_else(|| self.cursor.error_here("expected a global name"))?;
                Ok(Operand::global(name, self.offset()?))
            }
            Some('&') => {
                self.cursor.eat("&");
                let name =
                    self.cursor.name_after_sigil().ok_or_else(|| self.cursor.error_here("expected a symbol name"))?;
                Ok(Operand::external_symbol(name, self.offset()?))
            }
            Some('!') => {
                self.metadata_text()?;
                Ok(Operand::Metadata(self.cursor.rest_from(start).trim().into()))
            }
            Some('<') => Ok(Operand::McSymbol(self.angle_text()?.into())),
            _ => self.keyword_operand(start),
        }
    }

    fn keyword_operand(&mut self, start: usize) -> Result<Operand, MirError> {
        if self.starts_with_register_flag() {
            return self.register_operand(false);
        }
        let Some(word) = self.cursor.ident() else {
            return Err(self.cursor.error_here("expected a machine operand"));
        };
        let word_span = start..self.cursor.pos();
        match word {
            "intpred" | "floatpred" => {
                self.cursor.expect("(", "after the predicate keyword")?;
                // An unknown predicate is reported at its name, as llc does.
                let (name, name_span) =
                    self.cursor.ident_spanned().ok_or_else(|| self.cursor.error_here("expected a predicate"))?;
                let operand = if word == "intpred" {
                    IntPredicate::from_name(name).map(Operand::IntPred)
                } else {
                    FloatPredicate::from_name(name).map(Operand::FloatPred)
                };
                let operand =
                    operand.ok_or_else(|| self.cursor.error(name_span, format!("invalid {word} '{name}'")))?;
                self.cursor.expect(")", "after the predicate")?;
                Ok(operand)
            }
            "shufflemask" => {
                self.cursor.expect("(", "after 'shufflemask'")?;
                let mut mask = Vec::new();
                if !self.cursor.eat(")") {
                    loop {
                        if self.cursor.eat_word("undef") {
                            mask.push(None);
                        } else {
                            let n = self
                                .cursor
                                .unsigned()
                                .ok_or_else(|| self.cursor.error_here("expected a mask element"))?;
                            mask.push(Some(
                                u32::try_from(n).map_err(|_| self.cursor.error_here("mask element out of range"))?,
                            ));
                        }
                        if !self.cursor.eat(",") {
                            break;
                        }
                    }
                    self.cursor.expect(")", "after the shuffle mask")?;
                }
                Ok(Operand::ShuffleMask(mask.into()))
            }
            "intrinsic" => {
                self.cursor.expect("(", "after 'intrinsic'")?;
                self.cursor.expect("@", "before the intrinsic name")?;
                let name = self
                    .cursor
                    .name_after_sigil()
                    .ok_or_else(|| self.cursor.error_here("expected an intrinsic name"))?;
                self.cursor.expect(")", "after the intrinsic name")?;
                Ok(Operand::Intrinsic(name.into()))
            }
            "target-flags" => {
                self.cursor.expect("(", "after 'target-flags'")?;
                let flags = self.cursor.balanced()?;
                let operand = self.operand()?;
                Ok(Operand::target_flags(flags, operand))
            }
            "target-index" => {
                self.cursor.expect("(", "after 'target-index'")?;
                let name = self.cursor.balanced()?.into();
                Ok(Operand::TargetIndex(Box::new(SymbolOffset { name, offset: self.offset()? })))
            }
            "blockaddress" => {
                self.cursor.expect("(", "after 'blockaddress'")?;
                Ok(Operand::BlockAddress(self.cursor.balanced()?.into()))
            }
            "dbg-instr-ref" | "lanemask" | "liveout" | "CustomRegMask" | "cfi-index" => {
                self.cursor.expect("(", "after the operand keyword")?;
                self.cursor.balanced()?;
                Ok(Operand::Verbatim(self.cursor.rest_from(start).trim().into()))
            }
            _ => {
                if let Some(kind) = FpKind::from_name(word) {
                    let (text, span) = self.literal_word();
                    return FpConst::parse(kind, text)
                        .map(Operand::fpimm)
                        .ok_or_else(|| self.cursor.error(span, format!("invalid {word} constant '{text}'")));
                }
                if let Some(bits) = word.strip_prefix('i').and_then(|b| b.parse::<u32>().ok()) {
                    let (text, span) = self.literal_word();
                    if bits == 0 || Llt::try_scalar(u64::from(bits)).is_none() {
                        return Err(self.cursor.error(word_span, format!("invalid integer type '{word}'")));
                    }
                    return ApInt::parse(bits, text).map(Operand::cimm).ok_or_else(|| {
                        self.cursor.error(span, format!("expected an integer constant, found '{text}'"))
                    });
                }
                Ok(Operand::RegMask(self.func.names.intern(word)))
            }
        }
    }

    /// The next run of characters up to a separator, and where it was read
    /// (from its first character, past the spaces before it).
    fn literal_word(&mut self) -> (&'t str, std::ops::Range<usize>) {
        self.cursor.skip_spaces();
        let (start, rest) = (self.cursor.pos(), self.cursor.rest());
        let len = rest.find([' ', ',', ')']).unwrap_or(rest.len());
        self.cursor.set_pos(start + len);
        (&rest[..len], start..start + len)
    }

    fn frame_ref(&mut self, fixed: bool) -> Result<Operand, MirError> {
        let index = self.index("stack object index")?;
        let name = if self.cursor.eat_attached(b'.') { self.cursor.name_after_sigil().map(Into::into) } else { None };
        Ok(Operand::Frame(Box::new(FrameRef { fixed, index, name })))
    }

    fn index(&mut self, what: &str) -> Result<u32, MirError> {
        let n = self.cursor.unsigned().ok_or_else(|| self.cursor.error_here(format!("expected a {what}")))?;
        u32::try_from(n).map_err(|_| self.cursor.error_here(format!("{what} out of range")))
    }

    /// An optional ` + N` / ` - N`.
    fn offset(&mut self) -> Result<i64, MirError> {
        let save = self.cursor.pos();
        let negative = if self.cursor.eat("+") {
            false
        } else if self.cursor.eat("-") {
            true
        } else {
            return Ok(0);
        };
        let Some(n) = self.cursor.unsigned() else {
            self.cursor.set_pos(save);
            return Err(self.cursor.error_here("expected an offset"));
        };
        let n = i64::try_from(n).map_err(|_| self.cursor.error_here("offset out of range"))?;
        Ok(if negative { -n } else { n })
    }

    /// `!N`, `!name`, `!{...}`, `!"..."`, `!DILocation(...)`.
    fn metadata_text(&mut self) -> Result<(), MirError> {
        if self.cursor.eat("!{") {
            let mut depth = 1;
            while depth > 0 {
                let Some(c) = self.cursor.rest().chars().next() else {
                    return Err(self.cursor.error_here("unterminated metadata node"));
                };
                self.cursor.set_pos(self.cursor.pos() + c.len_utf8());
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
            }
            return Ok(());
        }
        if !self.cursor.eat("!") {
            // An inline `DILocation(...)`.
            if self.cursor.ident().is_some() && self.cursor.eat("(") {
                self.cursor.balanced()?;
                return Ok(());
            }
            return Err(self.cursor.error_here("expected metadata"));
        }
        self.cursor.name_after_sigil().ok_or_else(|| self.cursor.error_here("expected a metadata name"))?;
        if self.cursor.eat_attached(b'(') {
            self.cursor.balanced()?;
        }
        Ok(())
    }

    fn angle_text(&mut self) -> Result<&'t str, MirError> {
        self.cursor.skip_spaces();
        let rest = self.cursor.rest();
        let len = rest.find('>').ok_or_else(|| self.cursor.error_here("expected '>'"))? + 1;
        self.cursor.set_pos(self.cursor.pos() + len);
        Ok(&rest[..len])
    }

    /// `(volatile load acquire (s32) from %ir.p + 4, align 2)`.
    pub(super) fn memory_operand(&mut self) -> Result<MemOperand, MirError> {
        self.cursor.expect("(", "to start a memory operand")?;
        let mut flags = MemFlags::default();
        let mut target_flags = Vec::new();
        loop {
            if self.cursor.eat_word("volatile") {
                flags.insert(MemFlags::VOLATILE);
            } else if self.cursor.eat_word("non-temporal") {
                flags.insert(MemFlags::NON_TEMPORAL);
            } else if self.cursor.eat_word("dereferenceable") {
                flags.insert(MemFlags::DEREFERENCEABLE);
            } else if self.cursor.eat_word("invariant") {
                flags.insert(MemFlags::INVARIANT);
            } else if self.cursor.peek() == Some('"') {
                target_flags.push(self.cursor.name_after_sigil().unwrap_or_default().into());
            } else {
                break;
            }
        }
        if self.cursor.eat_word("load") {
            flags.insert(MemFlags::LOAD);
        }
        if self.cursor.eat_word("store") {
            flags.insert(MemFlags::STORE);
        }
        if !flags.contains(MemFlags::LOAD) && !flags.contains(MemFlags::STORE) {
            return Err(self.cursor.error_here("expected 'load' or 'store' in the memory operand"));
        }
        let sync_scope = if self.cursor.eat_word("syncscope") {
            self.cursor.expect("(", "after 'syncscope'")?;
            let text = self.cursor.balanced()?;
            Some(text.trim_matches('"').into())
        } else {
            None
        };
        let mut ordering = AtomicOrdering::NotAtomic;
        let mut failure_ordering = AtomicOrdering::NotAtomic;
        let save = self.cursor.pos();
        if let Some(word) = self.cursor.ident() {
            match AtomicOrdering::from_name(word) {
                Some(o) => {
                    ordering = o;
                    let save = self.cursor.pos();
                    match self.cursor.ident().and_then(AtomicOrdering::from_name) {
                        Some(f) => failure_ordering = f,
                        None => self.cursor.set_pos(save),
                    }
                }
                None => self.cursor.set_pos(save),
            }
        }
        let size = if self.cursor.eat_word("unknown-size") {
            MemSize::Unknown
        } else if self.cursor.eat("(") {
            let start = self.cursor.pos();
            let text = self.cursor.balanced_until_close()?;
            self.cursor.expect(")", "after the memory type")?;
            let ty = Llt::parse_with(text, self.pointer_bits)
                .map_err(|e| self.cursor.error(start..start + text.len(), e.to_string()))?;
            MemSize::Type(ty)
        } else if let Some(bytes) = self.cursor.unsigned() {
            let ty = Llt::try_scalar(bytes * 8).ok_or_else(|| self.cursor.error_here("memory size out of range"))?;
            MemSize::Type(ty)
        } else {
            return Err(self.cursor.error_here("expected the memory type, e.g. '(s32)', or 'unknown-size'"));
        };
        let mut memory = MemOperand {
            flags,
            target_flags,
            sync_scope,
            ordering,
            failure_ordering,
            size,
            pointer: None,
            offset: 0,
            base_align: natural_alignment(size),
            addr_space: None,
            metadata: Vec::new(),
        };
        if self.cursor.eat_word("from") || self.cursor.eat_word("into") || self.cursor.eat_word("on") {
            let start = self.cursor.pos();
            self.pointer_text()?;
            memory.pointer = Some(self.cursor.rest_from(start).trim().into());
            memory.offset = self.offset()?;
        }
        while self.cursor.eat(",") {
            if self.cursor.eat_word("align") || self.cursor.eat_word("basealign") {
                let n = self.cursor.unsigned().ok_or_else(|| self.cursor.error_here("expected an alignment"))?;
                if !n.is_power_of_two() {
                    return Err(self.cursor.error_here("alignment must be a power of two"));
                }
                memory.base_align = n;
            } else if self.cursor.eat_word("addrspace") {
                let n = self.cursor.unsigned().ok_or_else(|| self.cursor.error_here("expected an address space"))?;
                memory.addr_space =
                    Some(u32::try_from(n).map_err(|_| self.cursor.error_here("address space out of range"))?);
            } else if self.cursor.peek() == Some('!') {
                let start = self.cursor.pos();
                self.metadata_text()?;
                self.metadata_text()?;
                memory.metadata.push(self.cursor.rest_from(start).trim().into());
            } else {
                return Err(self.cursor.error_here("expected 'align', 'basealign', 'addrspace' or metadata"));
            }
        }
        self.cursor.expect(")", "to end the memory operand")?;
        Ok(memory)
    }

    /// The accessed location up to an offset, `,` or `)`: a name, or an IR
    /// value in backquotes (`` `ptr getelementptr (i8, ptr @g, i64 8)` ``).
    fn pointer_text(&mut self) -> Result<(), MirError> {
        self.cursor.skip_spaces();
        if self.cursor.eat_word("call-entry") || self.cursor.eat_word("custom") {
            self.cursor.skip_spaces();
        }
        let rest = self.cursor.rest();
        if let Some(value) = rest.strip_prefix('`') {
            let Some(close) = value.find('`') else {
                return Err(self.cursor.error_here("expected '`' to end the IR value"));
            };
            self.cursor.set_pos(self.cursor.pos() + close + 2);
            return Ok(());
        }
        let mut quoted = false;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '"' => quoted = !quoted,
                ',' | ')' | ' ' if !quoted => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        if end == 0 {
            return Err(self.cursor.error_here("expected the accessed location"));
        }
        self.cursor.set_pos(self.cursor.pos() + end);
        Ok(())
    }
}

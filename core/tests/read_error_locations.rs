//! Where the reader locates errors in an instruction line: at the token
//! that is wrong, with the line and column llc 22 reports for the same
//! input (each expected position was read off `llc -run-pass=legalizer`).

use gisel_core::mir::read_mir;

/// The 1-based line and column of the error reading a function whose
/// body's instruction line is `line` (the file's line 7).
fn error_position(line: &str) -> (usize, usize) {
    let source = format!(
        "---\nname: f\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    %0:_(s64) = COPY $x0\n    {line}\n    RET_ReallyLR\n"
    );
    let Err(error) = read_mir(&source, "t.mir", Some("aarch64"), "") else { panic!("'{line}' should not read") };
    error.line_column(&source)
}

#[test]
fn an_unknown_instruction_is_located_at_its_name() {
    assert_eq!(error_position("%1:_(s32) = G_BOGUS"), (7, 17));
    assert_eq!(error_position("%1:_(s32) = G_ADDD %0, %0"), (7, 17));
}

#[test]
fn a_malformed_constant_is_located_at_its_literal() {
    assert_eq!(error_position("%1:_(s64) = G_CONSTANT i64 zz"), (7, 32));
    assert_eq!(error_position("%1:_(s32) = G_FCONSTANT float zz"), (7, 35));
}

#[test]
fn an_unknown_predicate_is_located_at_its_name() {
    assert_eq!(error_position("%1:_(s1) = G_ICMP intpred(foo), %0(s64), %0"), (7, 31));
}

#[test]
fn a_generic_definition_without_a_type_is_located_after_the_register() {
    // llc 22 prints the second result of G_FMODF so (its type index was
    // printed already) and cannot read it back; nor can gisel.
    assert_eq!(error_position("%1:_(s64), %2:_ = G_FMODF %0"), (7, 21));
    assert_eq!(error_position("%1:_ = G_FNEG %0"), (7, 10));
}

#[test]
fn a_register_the_target_does_not_have_is_located_at_its_sigil() {
    assert_eq!(error_position("$x99 = COPY %0"), (7, 5));
    assert_eq!(error_position("%1:_(s64) = COPY $x99"), (7, 22));
    assert_eq!(error_position("$x0 = COPY %0, implicit-def $fakereg"), (7, 33));
}

#[test]
fn a_register_class_the_target_does_not_have_is_located_at_its_name() {
    assert_eq!(error_position("%1:gpr99 = COPY %0"), (7, 8));
    // The target's own classes (made up ones too) and banks read, and the
    // generic bank at the end of a line.
    let source = "---\nname: f\nbody: |\n  bb.0:\n    liveins: $x0, $d0_d1\n    %0:gpr64common_and_gpr64noip = COPY $x0\n    %1:fpr(s64) = COPY $d0\n    %2:_(s64) = COPY %1:fpr\n    $d0 = COPY %2:_\n    RET_ReallyLR\n";
    assert!(read_mir(source, "t.mir", Some("aarch64"), "").map_err(|e| e.render("t.mir", source)).is_ok());
}

#[test]
fn a_header_register_or_class_the_target_does_not_have_is_located_at_its_value() {
    let read = |header: &str| {
        let source = format!("---\nname: f\n{header}body: |\n  bb.0:\n    RET_ReallyLR\n");
        read_mir(&source, "t.mir", Some("aarch64"), "").map_err(|e| e.line_column(&source))
    };
    assert_eq!(read("registers:\n  - { id: 0, class: gpr99 }\n").err(), Some((4, 21)));
    assert_eq!(read("liveins:\n  - { reg: '$x99' }\n").err(), Some((4, 13)));
    assert!(
        read("registers:\n  - { id: 0, class: gpr64sp }\n  - { id: 1, class: fpr }\nliveins:\n  - { reg: '$w0' }\n")
            .is_ok()
    );
}

#[test]
fn a_class_or_bank_that_contradicts_an_earlier_one_is_located_at_its_name() {
    assert_eq!(error_position("%1:gpr64 = COPY $x0\n    $x0 = COPY %1:gpr32"), (8, 19));
    assert_eq!(error_position("%1:fpr(s64) = COPY %0\n    $x0 = COPY %1:gpr"), (8, 19));
    assert_eq!(error_position("%1:fpr(s64) = COPY %0\n    $x0 = COPY %1:_"), (8, 19));
    assert_eq!(error_position("%1:gpr64 = COPY $x0\n    $x0 = COPY %1:_"), (8, 19));
    assert_eq!(error_position("%1:gpr64 = COPY $x0\n    $x0 = COPY %1:fpr"), (8, 19));
    assert_eq!(error_position("%0:gpr64 = COPY $x0"), (7, 8));
    // A bank, as the generic `_`, needs a type where it is defined.
    assert_eq!(error_position("%1:gpr = COPY $x0"), (7, 12));
}

#[test]
fn a_class_no_virtual_register_may_take_is_rejected() {
    let source = "---\nname: f\nbody: |\n  bb.0:\n    %0:ccr = COPY $nzcv\n    RET_ReallyLR\n";
    let error = read_mir(source, "t.mir", Some("aarch64"), "").expect_err("CCR is not allocatable");
    assert_eq!(error.message, "Cannot use non-allocatable class 'CCR' for virtual register 0 in function 'f'");
}

#[test]
fn header_registers_and_flags_the_target_does_not_have_are_located_as_llc_locates_them() {
    let read = |header: &str| {
        let source = format!("---\nname: f\n{header}body: |\n  bb.0:\n    RET_ReallyLR\n");
        read_mir(&source, "t.mir", Some("aarch64"), "").map_err(|e| (e.message.clone(), e.line_column(&source)))
    };
    let unknown = |at| Some(("unknown register name 'x99'".to_owned(), at));
    let preferred = "registers:\n  - { id: 0, class: gpr64, preferred-register: '$x99' }\n";
    assert_eq!(read(preferred).err(), unknown((4, 49)));
    let generic = "registers:\n  - { id: 0, class: _, preferred-register: '$x1' }\n";
    let only_normal = "preferred register can only be set for normal vregs".to_owned();
    assert_eq!(read(generic).err(), Some((only_normal, (4, 21))));
    let flags = "registers:\n  - { id: 0, class: gpr64, preferred-register: '', flags: [ 'WWM_REG' ] }\n";
    assert_eq!(read(flags).err(), Some(("use of undefined register flag 'WWM_REG'".to_owned(), (4, 61))));
    assert_eq!(read("calleeSavedRegisters: [ '$x19', '$x99' ]\n").err(), unknown((3, 34)));
    let wrapped =
        "calleeSavedRegisters: [ '$x19', '$x20', '$x21', '$x22', '$x23', '$x24', \n                        '$x99' ]\n";
    assert_eq!(read(wrapped).err(), unknown((4, 26)));
    let stack =
        "stack:\n  - { id: 0, type: spill-slot, offset: -8, size: 8, alignment: 8, callee-saved-register: '$x99' }\n";
    assert_eq!(read(stack).err(), unknown((4, 91)));
    let fixed = "fixedStack:\n  - { id: 0, type: spill-slot, offset: 0, size: 8, alignment: 8, callee-saved-register: '$x99' }\n";
    assert_eq!(read(fixed).err(), unknown((4, 90)));
    let valid = "registers:\n  - { id: 0, class: gpr64, preferred-register: '$x1', flags: [  ] }\ncalleeSavedRegisters: [ '$x19', '$lr' ]\n";
    assert_eq!(read(valid).err(), None);
}

#[test]
fn a_stack_object_debug_field_must_be_one_metadata_node_the_module_defines() {
    // llc 22 itself writes `'!20577!20562!20404'` for a stack slot of three
    // variables (lz4hc.c at -O0 -g), which no llc reads back.
    let read = |variable: &str, expression: &str| {
        let source = format!(
            "--- |\n  define void @f() {{\n    ret void\n  }}\n\n  !0 = !{{}}\n...\n---\nname: f\nstack:\n  \
             - {{ id: 0, type: default, offset: 0, size: 8, alignment: 8,\n      debug-info-variable: '{variable}', \
             debug-info-expression: '{expression}' }}\nbody: |\n  bb.0:\n    RET_ReallyLR\n...\n"
        );
        read_mir(&source, "t.mir", Some("aarch64"), "")
            .map(drop)
            .map_err(|e| (e.message.clone(), e.line_column(&source)))
    };
    let end = "expected end of string after the metadata node".to_owned();
    assert_eq!(read("!0!0", ""), Err((end.clone(), (12, 31))));
    assert_eq!(read("", "!DIExpression()!DIExpression()"), Err((end, (12, 71))));
    assert_eq!(read("!7", ""), Err(("use of undefined metadata '!7'".to_owned(), (12, 29))));
    assert_eq!(read("x", ""), Err(("expected a metadata node".to_owned(), (12, 29))));
    assert_eq!(read("", ""), Ok(()));
}

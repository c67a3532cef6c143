//! What selects a subtarget beyond the triple: the CPU, the feature string,
//! the code model, the ABI and the optimization level, from the `llc`
//! command line and, per function, from the IR module as llc reads it.

use gisel_core::llvm_ir::{FlagValue, FunctionAttributes, IrModule};

/// The options a target is built from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TargetOptions {
    /// The `-mcpu` name (or a function's `"target-cpu"`), whose features
    /// come before `features`; `None` is the triple's generic CPU.
    pub cpu: Option<String>,
    /// The feature string (`+m,+f,+d`): `-mattr`, or a function's
    /// `"target-features"` followed by `-mattr`.
    pub features: String,
    /// The code model (`--code-model`, or the module's `"Code Model"`
    /// flag), if given.
    pub code_model: Option<String>,
    /// The ABI name (the module's `"target-abi"` flag: `lp64d`, `ilp32`),
    /// if given.
    pub abi: Option<String>,
    /// The floating-point ABI (`-float-abi=soft` or `hard`; Arm), if given.
    pub float_abi: Option<String>,
    /// The function asks for floating point in software
    /// (`"use-soft-float"="true"`; Arm adds `+soft-float`).
    pub soft_float: bool,
    /// The optimization level (`-O0` gives 0; llc's default is 2).
    pub opt_level: u8,
}

/// The items of a feature string (`+m,-c,zbb`) as (enabled, name): a `-`
/// disables, a `+` or no sign enables; blank items are skipped.
pub fn feature_items(features: &str) -> impl Iterator<Item = (bool, &str)> {
    features.split(',').map(str::trim).filter(|item| !item.is_empty()).map(|item| {
        match (item.strip_prefix('+'), item.strip_prefix('-')) {
            (_, Some(name)) => (false, name),
            (Some(name), _) => (true, name),
            _ => (true, item),
        }
    })
}

impl TargetOptions {
    /// These command-line options completed by the module's flags, which
    /// llc reads where the command line is silent: `"Code Model"` and
    /// `"target-abi"`.
    pub fn with_module_flags(mut self, module: &IrModule) -> TargetOptions {
        if self.code_model.is_none() {
            self.code_model = match module.module_flag("Code Model") {
                Some(FlagValue::Int(0)) => Some("tiny".into()),
                Some(FlagValue::Int(1)) => Some("small".into()),
                Some(FlagValue::Int(2)) => Some("kernel".into()),
                Some(FlagValue::Int(3)) => Some("medium".into()),
                Some(FlagValue::Int(4)) => Some("large".into()),
                _ => None,
            };
        }
        if self.abi.is_none()
            && let Some(FlagValue::Str(abi)) = module.module_flag("target-abi")
        {
            self.abi = Some(abi.to_string());
        }
        self
    }

    /// The options of a function with `attributes`, as llc builds each
    /// function's subtarget: its `"target-cpu"` replaces `-mcpu`,
    /// `-mattr` is appended to its `"target-features"`, and
    /// `"use-soft-float"="true"` sets [`TargetOptions::soft_float`].
    pub fn for_function(&self, attributes: Option<&FunctionAttributes>) -> TargetOptions {
        let attribute = |key| attributes.and_then(|a| a.function.string(key)).filter(|v| !v.is_empty());
        let mut options = self.clone();
        if let Some(cpu) = attribute("target-cpu") {
            options.cpu = Some(cpu.to_owned());
        }
        options.soft_float = attribute("use-soft-float") == Some("true");
        if let Some(features) = attribute("target-features") {
            options.features = match self.features.as_str() {
                "" => features.to_owned(),
                command_line => format!("{features},{command_line}"),
            };
        }
        options
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_attributes_come_before_the_command_line() {
        let module = IrModule::parse(
            "define void @f() #0 {\n  ret void\n}\ndeclare void @g()\n\
             attributes #0 = { \"target-cpu\"=\"generic-rv64\" \"target-features\"=\"+m,+d\" }\n\
             !llvm.module.flags = !{!0, !1}\n!0 = !{i32 1, !\"target-abi\", !\"lp64d\"}\n\
             !1 = !{i32 1, !\"Code Model\", i32 3}\n",
        );
        let command_line = TargetOptions { cpu: Some("rocket".into()), features: "-m".into(), ..Default::default() };
        let module_wide = command_line.with_module_flags(&module);
        assert_eq!(module_wide.abi.as_deref(), Some("lp64d"));
        assert_eq!(module_wide.code_model.as_deref(), Some("medium"));
        let f = module_wide.for_function(module.function("f"));
        assert_eq!((f.cpu.as_deref(), f.features.as_str()), (Some("generic-rv64"), "+m,+d,-m"));
        let g = module_wide.for_function(module.function("g"));
        assert_eq!((g.cpu.as_deref(), g.features.as_str()), (Some("rocket"), "-m"));
        assert_eq!(module_wide.for_function(None), module_wide);
    }
}

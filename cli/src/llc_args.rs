//! `llc`-style options (`-mtriple=aarch64`, `-o -`): single-dash long
//! options with `=` or a separate value, as LLVM's command-line library
//! accepts them.

use gisel_core::llvm_ir::IrModule;
use gisel_targets::TargetOptions;

/// Which pass `-run-pass` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// `none`: parse and print.
    None,
    /// `legalizer`.
    Legalizer,
}

/// Parsed options.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LlcArgs {
    /// `-mtriple`.
    pub triple: Option<String>,
    /// `-mcpu`.
    pub cpu: Option<String>,
    /// `-mattr`.
    pub features: Option<String>,
    /// `-run-pass`.
    pub pass: Option<Pass>,
    /// `-o`.
    pub output: Option<String>,
    /// The input files, in order (every command but `equiv` takes one).
    pub inputs: Vec<String>,
    /// `-verify-machineinstrs`.
    pub verify: bool,
    /// `-global-isel-abort=N`.
    pub abort_mode: Option<u8>,
    /// `--code-model=M`.
    pub code_model: Option<String>,
    /// `-float-abi=soft|hard|default` (Arm).
    pub float_abi: Option<String>,
    /// `-O0`..`-O3`.
    pub opt_level: Option<u8>,
    /// `--verify-semantics`: run each function before and after legalization
    /// on random inputs and require the same results.
    pub verify_semantics: bool,
    /// `--explain`: report every legalization step and combine, with the
    /// rule that chose it, on stderr.
    pub explain: bool,
    /// `-enable-cse-in-legalizer[=B]`: whether the legalizer's builder
    /// CSEs (llc's default: yes, constants only at `-O0`).
    pub cse_in_legalizer: Option<bool>,
    /// `-simplify-mir[=B]`: print the functions as llc's `-simplify-mir`
    /// does, without what a reader would infer.
    pub simplify_mir: bool,
}

impl LlcArgs {
    /// Parses `args`; unknown options are errors.
    pub fn parse(args: &[String]) -> Result<LlcArgs, String> {
        let mut parsed = LlcArgs::default();
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            if !arg.starts_with('-') || arg == "-" {
                parsed.inputs.push(arg.clone());
                continue;
            }
            let body = arg.trim_start_matches('-');
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (body, None),
            };
            let mut value = |what: &str| -> Result<String, String> {
                inline
                    .clone()
                    .or_else(|| iter.next().cloned())
                    .ok_or_else(|| format!("gisel: option '-{what}' needs a value"))
            };
            match name {
                "mtriple" => parsed.triple = Some(value("mtriple")?),
                "mattr" => parsed.features = Some(feature_string(&value("mattr")?)),
                "mcpu" => parsed.cpu = Some(value("mcpu")?),
                "o" => parsed.output = Some(value("o")?),
                "run-pass" => {
                    parsed.pass = Some(match value("run-pass")?.as_str() {
                        "none" => Pass::None,
                        "legalizer" => Pass::Legalizer,
                        other => return Err(format!("gisel: unknown pass '{other}' (expected none or legalizer)")),
                    })
                }
                "verify-machineinstrs" => parsed.verify = true,
                "verify-semantics" => parsed.verify_semantics = true,
                "explain" => parsed.explain = true,
                "global-isel-abort" => {
                    let mode = value("global-isel-abort")?;
                    parsed.abort_mode = Some(
                        mode.parse()
                            .ok()
                            .filter(|m| *m <= 2)
                            .ok_or(format!("gisel: bad -global-isel-abort value '{mode}'"))?,
                    )
                }
                "code-model" => parsed.code_model = Some(value("code-model")?),
                "float-abi" => {
                    let abi = value("float-abi")?;
                    if !matches!(abi.as_str(), "soft" | "hard" | "default") {
                        return Err(format!("gisel: bad -float-abi value '{abi}' (expected soft, hard or default)"));
                    }
                    parsed.float_abi = Some(abi).filter(|abi| abi != "default");
                }
                "enable-cse-in-legalizer" => parsed.cse_in_legalizer = Some(boolean(name, inline.as_deref())?),
                "simplify-mir" => parsed.simplify_mir = boolean(name, inline.as_deref())?,
                // Pipeline options that do not change what the legalizer
                // prints with -run-pass (docs/src/cli.md says why).
                "global-isel"
                | "debugify-and-strip-all-safe"
                | "aarch64-enable-gisel-sve"
                | "aarch64-neon-syntax"
                | "pass-remarks-missed"
                | "relocation-model" => {}
                // `-x mir`: the input language, which gisel reads anyway.
                "x" => {
                    let language = value("x")?;
                    if language != "mir" {
                        return Err(format!("gisel: unsupported input language '{language}' (only mir)"));
                    }
                }
                "O0" | "O1" | "O2" | "O3" => parsed.opt_level = name[1..].parse().ok(),
                _ => return Err(format!("gisel: unknown option '{arg}'")),
            }
        }
        Ok(parsed)
    }

    /// The one input file.
    pub fn input(&self) -> Result<&str, String> {
        match self.inputs.as_slice() {
            [] => Err("gisel: no input file".to_owned()),
            [input] => Ok(input),
            [_, extra, ..] => Err(format!("gisel: more than one input file ('{extra}')")),
        }
    }

    /// The target options these arguments give, completed by the flags of
    /// the IR `module` (before a function's attributes refine them).
    pub fn target_options(&self, module: &IrModule) -> TargetOptions {
        TargetOptions {
            cpu: self.cpu.clone(),
            features: self.features.clone().unwrap_or_default(),
            code_model: self.code_model.clone(),
            float_abi: self.float_abi.clone(),
            soft_float: false,
            abi: None,
            opt_level: self.opt_level.unwrap_or(2),
        }
        .with_module_flags(module)
    }
}

/// The value of the boolean option `-name[=value]`, spelled as llc accepts
/// it; without a value it is true.
fn boolean(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.unwrap_or("true") {
        "1" | "true" | "TRUE" | "True" => Ok(true),
        "0" | "false" | "FALSE" | "False" => Ok(false),
        other => Err(format!("gisel: bad -{name} value '{other}'")),
    }
}

/// A `-mattr` value as llc keeps it: each feature lowercased (`+A` is
/// `+a`) and enabled with `+` unless it says `+` or `-`.
fn feature_string(mattr: &str) -> String {
    let lowercased = mattr.to_lowercase();
    let features =
        gisel_targets::feature_items(&lowercased).map(|(on, name)| format!("{}{name}", if on { '+' } else { '-' }));
    features.collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<LlcArgs, String> {
        LlcArgs::parse(&line.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
    }

    #[test]
    fn accepts_llc_spellings() {
        let a = parse("-mtriple=aarch64 -mattr=+m -O0 -verify-machineinstrs -global-isel-abort=2 --code-model=large -run-pass=none f.mir -o - --explain")
            .unwrap();
        assert_eq!(a.triple.as_deref(), Some("aarch64"));
        assert_eq!(a.features.as_deref(), Some("+m"));
        assert_eq!(a.pass, Some(Pass::None));
        assert_eq!(a.output.as_deref(), Some("-"));
        assert_eq!(a.input(), Ok("f.mir"));
        assert!(a.verify);
        assert_eq!(a.abort_mode, Some(2));
        assert_eq!(a.code_model.as_deref(), Some("large"));
        assert_eq!(a.opt_level, Some(0));
        assert!(a.explain);
        assert_eq!(parse("-mtriple riscv64 x.mir").unwrap().triple.as_deref(), Some("riscv64"));
        let upstream = parse("-global-isel -debugify-and-strip-all-safe -aarch64-enable-gisel-sve=1 -mattr=+A f.mir");
        assert_eq!(upstream.map(|a| a.features), Ok(Some("+a".to_owned())));
        let more = parse("-x mir -aarch64-neon-syntax=apple -pass-remarks-missed=gisel* --relocation-model=pic f.mir");
        assert_eq!(more.map(|a| a.inputs), Ok(vec!["f.mir".to_owned()]));
        assert_eq!(parse("-enable-cse-in-legalizer=0 f.mir").unwrap().cse_in_legalizer, Some(false));
        assert_eq!(parse("-enable-cse-in-legalizer f.mir").unwrap().cse_in_legalizer, Some(true));
        assert!(parse("-simplify-mir f.mir").unwrap().simplify_mir);
        assert!(parse("--simplify-mir=1 f.mir").unwrap().simplify_mir);
        assert!(!parse("-simplify-mir=false f.mir").unwrap().simplify_mir);
        assert!(!parse("f.mir").unwrap().simplify_mir);
    }

    #[test]
    fn float_abi() {
        assert_eq!(parse("-float-abi=hard f.mir").unwrap().float_abi.as_deref(), Some("hard"));
        assert_eq!(parse("-float-abi soft f.mir").unwrap().float_abi.as_deref(), Some("soft"));
        assert_eq!(parse("-float-abi=default f.mir").unwrap().float_abi, None);
        assert!(parse("-float-abi=softfp f.mir").is_err());
    }

    #[test]
    fn rejects_bad_options() {
        assert!(parse("-frobnicate f.mir").is_err());
        assert!(parse("-run-pass=isel f.mir").is_err());
        assert_eq!(parse("a.mir b.mir").unwrap().input(), Err("gisel: more than one input file ('b.mir')".to_owned()));
        assert_eq!(parse("-O0").unwrap().input(), Err("gisel: no input file".to_owned()));
        assert!(parse("-global-isel-abort=7 f.mir").is_err());
        assert!(parse("-mtriple").is_err());
        assert_eq!(feature_string("+A,m,-Zbb"), "+a,+m,-zbb");
        assert!(parse("-x c f.mir").is_err());
        assert!(parse("-enable-cse-in-legalizer=maybe f.mir").is_err());
        assert!(parse("-simplify-mir=yes f.mir").is_err());
    }
}

//! `lectern completions bash|zsh|fish`: a shell completion script generated
//! from the clap definition, so it can never drift from the real flags.

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell as Target;

use crate::cli::{Cli, CompletionsArgs, Shell};

pub fn run(args: CompletionsArgs) -> Result<()> {
    let target = match args.shell {
        Shell::Bash => Target::Bash,
        Shell::Zsh => Target::Zsh,
        Shell::Fish => Target::Fish,
    };
    let mut command = Cli::command();
    // Into a buffer first: clap_complete panics when its writer fails (e.g. `| head`).
    let mut script = Vec::new();
    clap_complete::generate(target, &mut command, "lectern", &mut script);
    super::write_stdout(&script).context("writing the completion script")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(shell: Target) -> String {
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "lectern", &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_shell_completes_every_command() {
        for shell in [Target::Bash, Target::Zsh, Target::Fish] {
            let script = script(shell);
            for sub in Cli::command().get_subcommands() {
                assert!(script.contains(sub.get_name()), "{shell}: {} missing", sub.get_name());
            }
            assert!(script.contains("user-data"), "{shell}: --user-data missing");
        }
    }
}

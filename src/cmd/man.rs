//! `lectern man`: the manual page (roff, section 1) generated from the clap
//! definition: one page with every subcommand's usage, options and examples.

use std::io::Write as _;

use anyhow::{Context, Result};
use clap::CommandFactory;

use crate::cli::Cli;

pub fn run() -> Result<()> {
    super::write_stdout(&render()?).context("writing the man page")
}

/// `lectern(1)`: the top-level page, then a SUBCOMMANDS section with each
/// command's own help (clap_mangen renders one command per page, and a single
/// page is what `man lectern` users expect).
fn render() -> Result<Vec<u8>> {
    let mut command = Cli::command();
    // Building propagates bin names, so each command's usage reads `lectern add ...`.
    command.build();
    let mut buf = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut buf)?;
    man.render_name_section(&mut buf)?;
    man.render_synopsis_section(&mut buf)?;
    man.render_description_section(&mut buf)?;
    man.render_options_section(&mut buf)?;
    man.render_subcommands_section(&mut buf)?;
    writeln!(buf, ".SH \"COMMAND DETAILS\"")?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let mut sub = sub.clone();
        let help = sub.render_long_help().to_string();
        writeln!(buf, ".SS \"lectern {}\"", sub.get_name())?;
        writeln!(buf, ".nf")?;
        for line in help.lines() {
            writeln!(buf, "{}", escape(line))?;
        }
        writeln!(buf, ".fi")?;
    }
    if let Some(examples) = command.get_after_help() {
        writeln!(buf, ".SH EXAMPLES")?;
        writeln!(buf, ".nf")?;
        for line in examples.to_string().lines().skip_while(|l| l.ends_with(':')) {
            writeln!(buf, "{}", escape(line))?;
        }
        writeln!(buf, ".fi")?;
    }
    writeln!(buf, ".SH FILES")?;
    writeln!(buf, ".TP\n\\fI{{user-data}}/api/status.json\\fR, \\fI{{user-data}}/api/access-key\\fR")?;
    writeln!(
        buf,
        "Where a running \\fBlectern serve\\fR publishes its port and access key (see \\fBlectern doctor\\fR)."
    )?;
    writeln!(buf, ".SH ENVIRONMENT")?;
    writeln!(buf, ".TP\n\\fBLECTERN_USER_DATA\\fR")?;
    writeln!(buf, "The library folder, as \\fB\\-\\-user\\-data\\fR.")?;
    man.render_version_section(&mut buf)?;
    Ok(buf)
}

/// Plain text inside `.nf`: a leading `.` or `'` would be read as a request,
/// `\` starts an escape, and a bare `-` may print as a typographic hyphen that
/// breaks copied commands.
fn escape(line: &str) -> String {
    let line = line.replace('\\', "\\e").replace('-', "\\-");
    if line.starts_with('.') || line.starts_with('\'') { format!("\\&{line}") } else { line }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_every_command_and_its_examples() {
        let page = String::from_utf8(render().unwrap()).unwrap();
        assert!(page.starts_with(".ie") || page.contains(".TH lectern 1"), "{}", &page[..200]);
        for sub in Cli::command().get_subcommands() {
            assert!(page.contains(&format!("lectern {}\"", sub.get_name())), "{} missing", sub.get_name());
        }
        assert!(page.contains("lectern add \\-\\-site"));
        assert!(page.contains("Examples:"));
    }

    #[test]
    fn escaping_keeps_requests_out_of_text() {
        assert_eq!(escape(".SH x"), "\\&.SH x");
        assert_eq!(escape("a\\b --x"), "a\\eb \\-\\-x");
    }
}

//! The commands around building: shell completions, the manual page, the settings
//! file, the JSON Schemas of kit files, and a new kit made from a built-in one.

use std::path::Path;

use clap::CommandFactory as _;

use super::{Cli, Failure};
use crate::io;
use crate::kit::{self, Source};

/// `completions SHELL`: the completion script for that shell, on standard output.
pub fn completions(shell: clap_complete::Shell) -> Result<(), Failure> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "tablekit", &mut out);
    print_bytes(&out)
}

/// `man`: the manual page of tablekit and of each command (roff), on standard output.
pub fn man() -> Result<(), Failure> {
    let command = Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(command.clone())
        .render(&mut out)
        .map_err(anyhow::Error::from)?;
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("tablekit-{}", sub.get_name());
        let page = sub.clone().display_name(name.clone()).bin_name(name);
        clap_mangen::Man::new(page).render(&mut out).map_err(anyhow::Error::from)?;
    }
    print_bytes(&out)
}

fn print_bytes(bytes: &[u8]) -> Result<(), Failure> {
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(bytes) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::Other(
            anyhow::anyhow!("failed to write to standard output: {e}"),
        )),
        _ => Ok(()),
    }
}

/// `config [KEY [VALUE]]`: shows the settings and where they come from, or sets one
/// (`--unset KEY` removes it), keeping the file's comments.
pub fn config(
    key: Option<String>,
    value: Option<String>,
    unset: bool,
) -> Result<(), Failure> {
    use crate::config::{self, KEYS};
    let (path, text) = io::read_config_text(config::CONFIG_FILE)?;
    let shown = path.display().to_string();
    if let Some(key) = key {
        if !KEYS.iter().any(|(k, _)| *k == key) {
            let keys: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
            return Err(Failure::Other(anyhow::anyhow!(
                "no setting `{key}`: the settings are {}",
                keys.join(", ")
            )));
        }
        if value.is_none() && !unset {
            let (_, settings) = io::read_config()?;
            say!("{}", settings.get(&key).unwrap_or_default());
            return Ok(());
        }
        let written = config::set(&text, &shown, &key, value.as_deref())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        io::write_config_file(&path, &written)?;
        match value {
            Some(value) => say!("set {key} = {value} in {shown}"),
            None => say!("removed {key} from {shown}"),
        }
        return Ok(());
    }
    let (_, settings) = io::read_config()?;
    let state = if text.is_empty() { "not written yet" } else { "read" };
    say!("settings: {shown} ({state})");
    for (key, what) in KEYS {
        let (value, from) = match settings.get(key) {
            Some(value) => (value, "set in config.toml"),
            None => (default_of(key).to_string(), "default"),
        };
        say!("  {key:<10} {value:<10} {from}: {what}");
    }
    let (printers, _) = io::read_profiles_text()?;
    say!("printers: {}", printers.display());
    say!(
        "the command line wins over these: `--lang`, `--paper`, `--landscape`, `--printer`"
    );
    Ok(())
}

/// What a setting is when neither the command line nor config.toml sets it.
fn default_of(key: &str) -> &'static str {
    match key {
        "lang" => "en",
        "paper" => "a4",
        "landscape" => "false",
        _ => "none",
    }
}

/// Which schema `tablekit schema` prints.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SchemaOf {
    /// `kit.toml`.
    Kit,
    /// A strings file (`lang/<code>.toml`) of one game.
    Strings,
}

/// `schema kit|strings`: a JSON Schema for editors (taplo, Even Better TOML).
pub fn schema(of: SchemaOf, game: Option<&str>) -> Result<(), Failure> {
    let value = match of {
        SchemaOf::Kit => kit::kit_schema(),
        SchemaOf::Strings => {
            let game = game.unwrap_or("pathstone");
            let game = crate::GameId::parse(game).ok_or_else(|| {
                anyhow::anyhow!(
                    "--game: unknown game `{game}`: expected one of {}",
                    crate::GameId::names().join(", ")
                )
            })?;
            kit::strings::schema(&kit::defaults::reference(game))
        }
    };
    let text = serde_json::to_string_pretty(&value).map_err(anyhow::Error::from)?;
    say!("{text}");
    Ok(())
}

/// `new NAME --from KIT`: a copy of a kit, under a new id, to edit; never over an
/// existing folder.
pub fn new_kit(kits_dir: Option<&Path>, name: &str, from: &str) -> Result<(), Failure> {
    if !kit::is_slug(name) {
        return Err(Failure::Other(anyhow::anyhow!(
            "`{name}` cannot name a kit: use lowercase letters, digits and inner hyphens \
             (at most 64), such as my-roads"
        )));
    }
    let source = super::sources(kits_dir, &[from.to_string()])?.remove(0);
    let parent = match kits_dir {
        Some(dir) => dir.to_path_buf(),
        None if Path::new("kits").is_dir() => Path::new("kits").to_path_buf(),
        None => Path::new(".").to_path_buf(),
    };
    let target = parent.join(name);
    if target.exists() {
        return Err(Failure::Other(anyhow::anyhow!(
            "{} already exists: nothing was changed (choose another name)",
            target.display()
        )));
    }
    let files = renamed(&source, name)?;
    let borrowed: Vec<(&str, &[u8])> =
        files.iter().map(|(path, text)| (path.as_str(), text.as_bytes())).collect();
    io::write_all(&target, &borrowed)?;
    say!("created {} from {from} ({} files)", target.display(), files.len());
    let shown = target.display();
    say!("edit {shown}/kit.toml and {shown}/lang/*.toml, then `tablekit build {shown}`");
    Ok(())
}

/// The kit's files with its id set to `name` (comments kept).
fn renamed(source: &Source, name: &str) -> Result<Vec<(String, String)>, Failure> {
    let mut files: Vec<(String, String)> =
        source.files.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    for (path, text) in &mut files {
        if path == "kit.toml" {
            let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| {
                anyhow::anyhow!("{}: {e}", source.display_path("kit.toml"))
            })?;
            doc["id"] = toml_edit::value(name);
            *text = doc.to_string();
        }
    }
    Ok(files)
}

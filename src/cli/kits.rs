//! Finding kits: the folders and ids the command line names, read, loaded and
//! verified. Every command that takes kits goes through here, so they all refuse the
//! same mistakes with the same words.

use std::path::Path;

use super::Failure;
use crate::diag::Diagnostic;
use crate::io;
use crate::kit::{Kit, Source};
use crate::pipeline::Verified;
use crate::serve::Offered;

/// The kits named on the command line, or all of them; at least one, each folder
/// once.
pub(crate) fn sources(
    kits_dir: Option<&Path>,
    names: &[String],
) -> Result<Vec<Source>, Failure> {
    let default_dir = Path::new("kits");
    let dir = kits_dir.unwrap_or(default_dir);
    let all = if kits_dir.is_some() || default_dir.is_dir() {
        io::read_kits_dir(dir)?
    } else {
        io::builtin_kits()
    };
    let by_id = |name: &str| {
        if all.is_empty() {
            return Failure::Other(anyhow::anyhow!(
                "unknown kit `{name}`: {}",
                no_kit_in(dir)
            ));
        }
        let known: Vec<String> = all.iter().filter_map(folder_id).collect();
        Failure::Other(anyhow::anyhow!(
            "unknown kit `{name}`: expected a kit folder or one of: {}",
            known.join(", ")
        ))
    };
    if names.is_empty() {
        if all.is_empty() {
            return Err(Failure::Other(anyhow::anyhow!("{}", no_kit_in(dir))));
        }
        return Ok(all);
    }
    let named = names
        .iter()
        .map(|name| {
            let path = Path::new(name);
            if path.join("kit.toml").is_file() {
                return Ok(io::read_kit(path)?);
            }
            all.iter()
                .find(|s| folder_id(s).as_deref() == Some(name))
                .cloned()
                .ok_or_else(|| by_id(name))
        })
        .collect::<Result<Vec<Source>, Failure>>()?;
    // A folder named twice (by id and by path) is one kit, built once.
    let mut seen = Vec::new();
    Ok(named
        .into_iter()
        .filter(|source| {
            let folder = Path::new(&source.dir);
            let key = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.into());
            let new = !seen.contains(&key);
            seen.push(key);
            new
        })
        .collect())
}

/// A kit folder's name up to the first space: `three-men-slide` for
/// `kits/three-men-slide (built in)`.
fn folder_id(source: &Source) -> Option<String> {
    source.dir.rsplit('/').next().unwrap_or("").split(' ').next().map(str::to_string)
}

/// Says that `dir` holds no kit, and what to do if it is a kit itself.
fn no_kit_in(dir: &Path) -> String {
    let shown = dir.display();
    let mut message = format!(
        "no kit found in {shown}: a kits folder holds one folder per kit, each with a \
         kit.toml"
    );
    if dir.join("kit.toml").is_file() {
        let parent = dir.parent().filter(|p| !p.as_os_str().is_empty());
        let parent = parent.map_or_else(|| ".".to_string(), |p| p.display().to_string());
        message.push_str(&format!(
            "; {shown} is itself a kit folder: name it as a kit (`tablekit build \
             {shown}`), or give its parent to --kits (`--kits {parent}`)"
        ));
    }
    message
}

/// Loads kits, collecting every problem; two kits with one id are one (they would be
/// built into one folder). Their examples are verified by the command that builds
/// them ([`verify_each`]), once per kit, so not here.
pub(super) fn load_all(sources: &[Source]) -> Result<Vec<Kit>, Failure> {
    let (kits, diags) = load_each(sources);
    if diags.is_empty() { Ok(kits) } else { Err(Failure::Kit(diags)) }
}

/// Loads kits as [`load_all`] does and verifies their examples, for a command that
/// offers them before it builds any (`serve`).
pub(super) fn load_verified(sources: &[Source]) -> Result<Vec<Offered>, Failure> {
    let (loaded, mut diags) = load_each(sources);
    let verified = verify_each(&loaded);
    let mut kits = Vec::new();
    for (kit, verified) in loaded.into_iter().zip(verified) {
        match verified {
            Ok(verified) => kits.push(Offered { kit, verified }),
            Err(errors) => diags.extend(errors),
        }
    }
    if diags.is_empty() { Ok(kits) } else { Err(Failure::Kit(diags)) }
}

/// Every kit's examples replayed by its game's rules, kits side by side, in the
/// kits' order: the verify stage, once per kit for the whole command.
pub(super) fn verify_each(kits: &[Kit]) -> Vec<Result<Verified, Vec<Diagnostic>>> {
    use rayon::prelude::*;
    kits.par_iter().map(crate::pipeline::verify).collect()
}

/// Every kit that loads, and the problems of those that do not (and of ids taken
/// twice).
fn load_each(sources: &[Source]) -> (Vec<Kit>, Vec<Diagnostic>) {
    use rayon::prelude::*;
    // Kits load and are checked side by side (every build waits for this); results
    // and problems keep the kits' order.
    let mut loaded = Vec::new();
    let mut diags = Vec::new();
    let results: Vec<_> = sources.par_iter().map(crate::pipeline::load).collect();
    for result in results {
        match result {
            Ok(kit) => loaded.push(kit),
            Err(errors) => diags.extend(errors),
        }
    }
    diags.extend(same_ids(&loaded));
    (loaded, diags)
}

/// One problem for each kit whose id an earlier kit already has, naming both folders.
fn same_ids(kits: &[Kit]) -> Vec<Diagnostic> {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        id: toml::Spanned<String>,
    }
    let mut diags = Vec::new();
    for (i, kit) in kits.iter().enumerate() {
        let Some(first) = kits[..i].iter().find(|k| k.id == kit.id) else {
            continue;
        };
        let message = format!(
            "two kits have the id `{}`: {} and {}",
            kit.id,
            kit_dir(first),
            kit_dir(kit)
        );
        let span = toml::from_str::<IdOnly>(&kit.kit_source).ok().map(|k| k.id.span());
        let diag = match span {
            Some(span) => Diagnostic::at(&kit.kit_file, &kit.kit_source, span, message)
                .with_label("an id another kit has"),
            None => Diagnostic::file(&kit.kit_file, message),
        };
        diags.push(diag.with_note(
            "a build writes each kit into a folder named by its id, so these two would \
             share one: give one of them another `id`, or name only one",
        ));
    }
    diags
}

/// The folder a kit was read from, as messages show it.
fn kit_dir(kit: &Kit) -> String {
    kit.folder().to_string()
}

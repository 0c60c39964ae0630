//! `calibrate`: the printer profiles kept on this computer and the page to measure
//! them from; the arithmetic of a correction is `crate::calibrate`.

use std::path::Path;

use super::Failure;
use crate::calibrate::{self, Calibration};
use crate::io;
use crate::layout::Paper;

/// `calibrate`: keep a printer's measurement, list the printers kept, or write the
/// calibration page.
pub(super) fn run(
    name: Option<String>,
    measured: Option<String>,
    list: bool,
    sheet: bool,
    (paper, lang, out): (&str, &str, &Path),
) -> Result<(), Failure> {
    if sheet {
        let paper =
            Paper::parse(paper, false).map_err(|e| anyhow::anyhow!("--paper: {e}"))?;
        let bytes = calibrate::sheet(&paper, lang)
            .map_err(|e| anyhow::anyhow!("--sheet: {e}"))?;
        let path = out.join(format!("calibration-{lang}-{}.pdf", paper.name()));
        io::write_file(&path, &bytes)?;
        say!("wrote {} (1 page)", path.display());
        return Ok(());
    }
    let (path, profiles) = io::read_profiles()?;
    if list {
        if profiles.0.is_empty() {
            say!("no printer kept yet in {}", path.display());
        }
        for (name, calibration) in &profiles.0 {
            let (across, down) = calibration.shown(false);
            let name = calibrate::shown_name(name);
            say!("{name}: {across} x {down} mm (the 100 mm bar across x down)");
        }
        return Ok(());
    }
    let name = name.expect("clap requires a name without --list or --sheet");
    calibrate::valid_name(&name).map_err(|e| anyhow::anyhow!(e))?;
    let Some(measured) = measured else {
        return Err(Failure::Other(anyhow::anyhow!(
            "calibrate {name}: give what the printer made of the 100 mm bar with \
             --measured ACROSSxDOWN (print the page from `tablekit calibrate --sheet`)"
        )));
    };
    let calibration =
        Calibration::parse(&measured).map_err(|e| anyhow::anyhow!("--measured: {e}"))?;
    let (_, text) = io::read_profiles_text()?;
    let kept = calibrate::Profiles::keep(&text, &name, calibration)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    io::write_config_file(&path, &kept)?;
    let (sx, sy) = calibration.scale();
    say!(
        "kept printer `{name}` in {}: sheets built with --printer {name} are drawn at \
         {:.2} % across and {:.2} % down",
        path.display(),
        sx * 100.0,
        sy * 100.0
    );
    Ok(())
}

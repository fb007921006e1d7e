//! The XOR experiment's report (IEEE TC §7.1) in [`table`](super::table)'s layout: the
//! functions each search chose on the training traces (as Table 5), the bank conflict cycles
//! removed (Fig. 8) and the speedups (Fig. 9) per kernel, and the averages beside Table 6 and
//! §7.1's geometric means. Pure formatting: the numbers come from [`Report`].

use super::table::{beside, bold, fixed, percent, Format, PaperReport, Section, Table};
use super::xor::{Report, Scheme};
use crate::correlate::table::thousands;

/// The configurable and fixed schemes, Table 6's rows.
const HASHED: [Scheme; 6] = [
    Scheme::FixedXor,
    Scheme::BvXor,
    Scheme::BwPermGh,
    Scheme::BwPermMih,
    Scheme::BwXorGh,
    Scheme::BwXorMih,
];

impl PaperReport for Report {
    fn intro(&self) -> String {
        format!(
            "warpstep {}: van den Braak et al., \"Configurable XOR Hash Functions for Banked \
             Scratchpad Memories in GPUs\" (IEEE TC), §6-7.1, on our kernels, preset {} (GTX 480) \
             on {}{}. Each search reads the kernel's shared access trace on a training input \
             (a smaller launch on other data); its function then runs the kernel's launch \
             (--set shmem.hash=SPEC). {} simulations, {} of them with output equal to the host \
             reference.\n",
            env!("CARGO_PKG_VERSION"),
            self.preset,
            self.machine_label,
            if self.size == super::Size::Quick {
                ", --quick launches"
            } else {
                ""
            },
            self.runs,
            self.checked
        )
    }

    fn sections(&self, f: Format) -> Vec<Section> {
        vec![
            Section::table(
                "Functions chosen on the training traces (as Table 5)",
                chosen_table(self),
            ),
            Section::table(
                "Bank conflict cycles removed (Fig. 8; Table 6 averages)",
                removed_table(self, f),
            ),
            Section::table(
                "Speedup over mod in cycles (Fig. 9)",
                speedup_table(self, f),
            ),
            Section::table(
                "Averages beside the paper's (Table 6, §7.1)",
                average_table(self),
            ),
            Section::text("Ranking by conflicts removed", ranking_text(self)),
            Section::text("Notes", NOTES),
        ]
    }

    fn incomplete(&self) -> &[String] {
        &self.incomplete
    }
}

const NOTES: &str = "\
- Removed = 1 - conflict cycles / mod's conflict cycles (passes beyond one per shared access, \
without an atomic's passes on lanes of one word, which GPGPU-Sim merges as a load's and no bank \
function can remove); \
the average is the arithmetic mean over the kernels whose mod run has conflicts (Table 6). \
Speedup = mod's cycles / cycles; its average is the geometric mean (Fig. 9, §7.1).
- The headline averages and the ranking are over the kernels of Table 5's kinds, as the paper's \
are over Table 5's benchmarks; AES is not one of them (its kind is `none`), and the \
`every kernel` line and columns average it in too.
- Configurable functions add `shmem.hash_latency` = 1 cycle to every shared access (§4.5); \
mod and the fixed XOR add none.
- The searches refuse functions that cannot reach every bank (GF(2) rank below 5): Table 5's \
GH bitwise-XOR rows for hist64, MRI-grid-2 and reduction are such functions, ours are not.
- The paper's numbers are over its 22 benchmarks (Table 5); ours over the kernels above of \
their kinds (docs/xor.md).
";

fn chosen_table(report: &Report) -> Table {
    let rows = report
        .kernels
        .iter()
        .map(|k| {
            let mut row = vec![
                k.kernel.to_string(),
                k.paper_kind.to_string(),
                thousands(k.training.access_sets as u64),
            ];
            for t in k
                .training
                .schemes
                .iter()
                .filter(|t| t.scheme.search().is_some())
            {
                row.push(format!("{} ({}→{})", t.hash, t.cost_before, t.cost_after));
            }
            row
        })
        .collect();
    let mut header = vec![
        "kernel".to_string(),
        "paper's kind".to_string(),
        "training sets".to_string(),
    ];
    header.extend(
        HASHED
            .iter()
            .filter(|s| s.search().is_some())
            .map(|s| format!("{} (trace conflicts mod→hash)", s.short())),
    );
    Table::new(&header, rows, 2)
}

/// The best cell of a row in bold (Markdown).
fn mark_best(f: Format, cells: Vec<(String, Option<f64>)>) -> Vec<String> {
    let best = cells
        .iter()
        .filter_map(|(_, v)| *v)
        .fold(f64::NEG_INFINITY, f64::max);
    cells
        .into_iter()
        .map(|(c, v)| match v {
            Some(v) if (v - best).abs() < 1e-12 => bold(f, &c),
            _ => c,
        })
        .collect()
}

fn removed_table(report: &Report, f: Format) -> Table {
    let mut rows: Vec<Vec<String>> = report
        .kernels
        .iter()
        .map(|k| {
            let base = k
                .result(Scheme::Mod)
                .map_or(0, |r| r.counters.bank_conflicts());
            let mut row = vec![k.kernel.to_string(), thousands(base)];
            let cells = HASHED
                .iter()
                .map(|&s| {
                    let r = k.result(s);
                    let v = r.and_then(|r| r.removed);
                    let cycles = r.map_or(0, |r| r.counters.bank_conflicts());
                    (format!("{} ({})", percent(v), thousands(cycles)), v)
                })
                .collect();
            row.extend(mark_best(f, cells));
            row
        })
        .collect();
    let mut avg = vec![
        "average of Table 5's kinds (paper)".to_string(),
        String::new(),
    ];
    avg.extend(HASHED.iter().map(|&s| {
        let a = report.average(s);
        let ours = percent(a.and_then(|a| a.removed));
        match a.and_then(|a| a.paper) {
            Some(p) => format!("{ours} ({})", percent(Some(p.removed))),
            None => ours,
        }
    }));
    rows.push(avg);
    let mut all = vec!["average of every kernel".to_string(), String::new()];
    all.extend(
        HASHED
            .iter()
            .map(|&s| percent(report.average(s).and_then(|a| a.removed_all))),
    );
    rows.push(all);
    let mut header = vec!["kernel".to_string(), "mod conflict cycles".to_string()];
    header.extend(HASHED.iter().map(|s| format!("{} (cycles)", s.short())));
    Table::new(&header, rows, 1)
}

fn speedup_table(report: &Report, f: Format) -> Table {
    let mut rows: Vec<Vec<String>> = report
        .kernels
        .iter()
        .map(|k| {
            let base = k.result(Scheme::Mod).map_or(0, |r| r.counters.cycles);
            let mut row = vec![k.kernel.to_string(), thousands(base)];
            let cells = HASHED
                .iter()
                .map(|&s| {
                    let v = k.result(s).and_then(|r| r.speedup);
                    (fixed(v, 3), v)
                })
                .collect();
            row.extend(mark_best(f, cells));
            row
        })
        .collect();
    let mut avg = vec![
        "geomean of Table 5's kinds (paper)".to_string(),
        String::new(),
    ];
    avg.extend(HASHED.iter().map(|&s| {
        let a = report.average(s);
        beside(
            a.and_then(|a| a.speedup),
            a.and_then(|a| a.paper).map(|p| p.speedup),
            3,
        )
    }));
    rows.push(avg);
    let mut all = vec!["geomean of every kernel".to_string(), String::new()];
    all.extend(
        HASHED
            .iter()
            .map(|&s| fixed(report.average(s).and_then(|a| a.speedup_all), 3)),
    );
    rows.push(all);
    let mut header = vec!["kernel".to_string(), "mod cycles".to_string()];
    header.extend(HASHED.iter().map(|s| s.short().to_string()));
    Table::new(&header, rows, 1)
}

fn average_table(report: &Report) -> Table {
    let rows = report
        .averages
        .iter()
        .map(|a| {
            vec![
                a.scheme.label().to_string(),
                percent(a.removed),
                percent(a.paper.map(|p| p.removed)),
                fixed(a.speedup, 3),
                fixed(a.paper.map(|p| p.speedup), 2),
                percent(a.removed_all),
                fixed(a.speedup_all, 3),
            ]
        })
        .collect();
    Table::new(
        &[
            "hash function",
            "conflicts removed",
            "paper (Table 6)",
            "speedup (geomean)",
            "paper (§7.1)",
            "removed, every kernel",
            "speedup, every kernel",
        ],
        rows,
        1,
    )
}

fn ranking_text(report: &Report) -> String {
    let names = |order: &[Scheme]| -> String {
        order
            .iter()
            .map(|s| s.short())
            .collect::<Vec<_>>()
            .join(" > ")
    };
    format!(
        "- ours: {}\n- paper (Table 6): {}\n",
        names(&report.ranking),
        names(&report.paper_ranking)
    )
}

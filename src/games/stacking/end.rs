//! The end of the game: roads edge to edge, a full board or an empty reserve, the
//! turn limit.

use super::*;

/// Bit masks of the board's edges, one bit per square (bit `row * size + col`).
pub(super) struct Edges {
    pub(super) all: u64,
    pub(super) west: u64,
    pub(super) east: u64,
    pub(super) south: u64,
    pub(super) north: u64,
}

impl Edges {
    pub(super) fn new(size: usize) -> Edges {
        let all = if size * size == 64 { u64::MAX } else { (1 << (size * size)) - 1 };
        let south = (1 << size) - 1;
        let west = (0..size).fold(0, |mask, row| mask | 1 << (row * size));
        Edges {
            all,
            west,
            east: west << (size - 1),
            south,
            north: south << (size * (size - 1)),
        }
    }
}

/// What the top pieces show: road squares per colour, top flats per colour, occupied.
pub(super) struct Tops {
    pub(super) road: [u64; 2],
    pub(super) flats: [u32; 2],
    pub(super) occupied: u64,
}

/// Why a game has ended.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum End {
    Road(Color),
    /// The count of top flats after a full board or an empty reserve; `None` is a tie.
    Count(Option<Color>),
    TurnLimit,
}

// Reading the end of the game off a position.
impl State {
    pub(super) fn tops(&self) -> Tops {
        let mut tops = Tops { road: [0; 2], flats: [0; 2], occupied: 0 };
        for (at, stack) in self.stacks.iter().enumerate() {
            let Some(top) = stack.last() else { continue };
            let bit = 1 << at;
            tops.occupied |= bit;
            if top.kind != Kind::Wall {
                tops.road[top.color.index()] |= bit;
            }
            if top.kind == Kind::Flat {
                tops.flats[top.color.index()] += 1;
            }
        }
        tops
    }

    /// Checks in the rules' order: roads (the mover's first), then a full board or an
    /// empty reserve, then the turn limit.
    pub(super) fn end(&self, variant: &Variant) -> Option<End> {
        let tops = self.tops();
        let edges = Edges::new(self.side());
        let mover = self.to_move.other();
        if let Some(winner) = [mover, self.to_move]
            .into_iter()
            .find(|c| has_road(tops.road[c.index()], &edges, self.side()))
        {
            return Some(End::Road(winner));
        }
        if tops.occupied == edges.all || self.reserves.iter().any(|r| r.is_empty()) {
            let [white, black] = tops.flats;
            let winner = match white.cmp(&black) {
                std::cmp::Ordering::Greater => Some(Color::White),
                std::cmp::Ordering::Less => Some(Color::Black),
                std::cmp::Ordering::Equal => None,
            };
            return Some(End::Count(winner));
        }
        match variant.turn_limit {
            Some(limit) if self.turns >= limit => Some(End::TurnLimit),
            _ => None,
        }
    }

    /// A shortest road of `color`'s, west to east or south to north, in path order.
    pub(super) fn road_of(&self, color: Color) -> Vec<Square> {
        let mask = self.tops().road[color.index()];
        let edges = Edges::new(self.side());
        let paths = [
            self.shortest_path(mask, edges.west, edges.east),
            self.shortest_path(mask, edges.south, edges.north),
        ];
        // `min_by_key` keeps the first of equals: west–east before south–north.
        let path = paths.into_iter().flatten().min_by_key(Vec::len).unwrap_or_default();
        path.into_iter().map(|at| self.square_at(at)).collect()
    }

    /// Breadth-first search through `mask` from the `from` edge to the `to` edge.
    pub(super) fn shortest_path(
        &self,
        mask: u64,
        from: u64,
        to: u64,
    ) -> Option<Vec<usize>> {
        let mut parent: Vec<Option<usize>> = vec![None; self.stacks.len()];
        let mut seen = mask & from;
        let mut queue: VecDeque<usize> = bits(seen).collect();
        while let Some(at) = queue.pop_front() {
            if to & (1 << at) != 0 {
                return Some(trace_back(&parent, at));
            }
            for dir in Dir::ALL {
                if self.room(at, dir) == 0 {
                    continue;
                }
                let next = self.step(at, dir);
                if mask & !seen & (1 << next) != 0 {
                    seen |= 1 << next;
                    parent[next] = Some(at);
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

/// The path that `parent` links lead back along from `end`, start first.
pub(super) fn trace_back(parent: &[Option<usize>], end: usize) -> Vec<usize> {
    let mut path = vec![end];
    let mut at = end;
    while let Some(before) = parent[at] {
        path.push(before);
        at = before;
    }
    path.reverse();
    path
}

/// The set bits of `mask`, lowest first.
pub(super) fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |bit| mask & (1 << bit) != 0)
}

/// `squares` and their orthogonal neighbours.
pub(super) fn grow(squares: u64, edges: &Edges, side: usize) -> u64 {
    let sideways = (squares & !edges.east) << 1 | (squares & !edges.west) >> 1;
    (squares | squares << side | squares >> side | sideways) & edges.all
}

/// Whether `mask` joins `from` to `to` through orthogonal neighbours.
pub(super) fn connects(
    mask: u64,
    from: u64,
    to: u64,
    edges: &Edges,
    side: usize,
) -> bool {
    let mut reached = mask & from;
    loop {
        if reached & to != 0 {
            return true;
        }
        let next = grow(reached, edges, side) & mask;
        if next == reached {
            return false;
        }
        reached = next;
    }
}

pub(super) fn has_road(mask: u64, edges: &Edges, side: usize) -> bool {
    connects(mask, edges.west, edges.east, edges, side)
        || connects(mask, edges.south, edges.north, edges, side)
}

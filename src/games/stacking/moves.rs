//! Move generation, playing and taking back moves, and the legality checks that
//! explain why a move is refused.

use super::*;

// Move generation, without the end check (the callers make it).
impl State {
    pub(super) fn actions(&self, variant: &Variant, out: &mut Vec<Action>) {
        if self.in_opening(variant) {
            self.opening_placements(out);
            return;
        }
        self.placements(variant, out);
        for at in 0..self.stacks.len() {
            match self.top(at) {
                Some(top) if top.color == self.to_move => {
                    self.spreads_from(variant, at, top, out);
                }
                _ => {}
            }
        }
    }

    /// The opening: a flat of the opponent's colour, from their reserve.
    pub(super) fn opening_placements(&self, out: &mut Vec<Action>) {
        let color = self.to_move.other();
        if self.reserves[color.index()].stones == 0 {
            return;
        }
        let piece = Piece { color, kind: Kind::Flat };
        out.extend(self.empty_squares().map(|at| Action::Place { at, piece }));
    }

    pub(super) fn placements(&self, variant: &Variant, out: &mut Vec<Action>) {
        let reserve = self.reserves[self.to_move.index()];
        let kinds = [
            (Kind::Flat, reserve.stones > 0),
            (Kind::Wall, variant.walls && reserve.stones > 0),
            (Kind::Crown, reserve.crowns > 0),
        ];
        for at in self.empty_squares() {
            for (kind, allowed) in kinds {
                if allowed {
                    let piece = Piece { color: self.to_move, kind };
                    out.push(Action::Place { at, piece });
                }
            }
        }
    }

    pub(super) fn empty_squares(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.stacks.len()).filter(|&at| self.stacks[at].is_empty())
    }

    pub(super) fn spreads_from(
        &self,
        variant: &Variant,
        from: usize,
        top: Piece,
        out: &mut Vec<Action>,
    ) {
        let most = usize::from(variant.carry_limit).min(self.stacks[from].len());
        for dir in Dir::ALL {
            let (free, wall_next) = self.run(from, dir);
            let mut push = |drops: &[u8; MAX_DROPS], squares: usize| {
                out.push(Action::Spread(Spread::new(from, dir, &drops[..squares])));
            };
            for lifted in 1..=most {
                let mut drops = [0; MAX_DROPS];
                drop_patterns(lifted, free, false, &mut drops, 0, &mut push);
                if wall_next && top.kind == Kind::Crown {
                    // Fill the free squares exactly, then the Crown alone onto the wall.
                    drops[free] = 1;
                    let mut onto_wall =
                        |drops: &[u8; MAX_DROPS], squares| push(drops, squares + 1);
                    drop_patterns(lifted - 1, free, true, &mut drops, 0, &mut onto_wall);
                }
            }
        }
    }

    /// Squares a carry from `from` may drop on before the edge, a wall or a Crown, and
    /// whether a wall is what stops it.
    pub(super) fn run(&self, from: usize, dir: Dir) -> (usize, bool) {
        let room = self.room(from, dir);
        let mut at = from;
        for free in 0..room {
            at = self.step(at, dir);
            match self.top(at).map(|piece| piece.kind) {
                Some(Kind::Wall) => return (free, true),
                Some(Kind::Crown) => return (free, false),
                _ => {}
            }
        }
        (room, false)
    }
}

// Counting moves without making them: the last ply of a perft needs only how many.
impl State {
    /// How many actions [`State::actions`] would list, found without listing them.
    pub(super) fn count_actions(&self, variant: &Variant) -> u64 {
        if self.in_opening(variant) {
            let stones = self.reserves[self.to_move.other().index()].stones;
            return if stones == 0 { 0 } else { self.empty_count() };
        }
        let reserve = self.reserves[self.to_move.index()];
        let kinds = u64::from(reserve.stones > 0)
            + u64::from(variant.walls && reserve.stones > 0)
            + u64::from(reserve.crowns > 0);
        let mut total = kinds * self.empty_count();
        for at in 0..self.stacks.len() {
            match self.top(at) {
                Some(top) if top.color == self.to_move => {
                    total += self.spread_count(variant, at, top);
                }
                _ => {}
            }
        }
        total
    }

    fn empty_count(&self) -> u64 {
        self.stacks.iter().filter(|stack| stack.is_empty()).count() as u64
    }

    /// How many carries [`State::spreads_from`] would list from `from`.
    fn spread_count(&self, variant: &Variant, from: usize, top: Piece) -> u64 {
        let most = usize::from(variant.carry_limit).min(self.stacks[from].len());
        if most > MAX_CARRY {
            return self.spread_count_slowly(variant, from, top);
        }
        let mut total = 0;
        for dir in Dir::ALL {
            let (free, wall_next) = self.run(from, dir);
            total += SPREADS[most][free];
            if wall_next && top.kind == Kind::Crown {
                total += CROWN_ONTO_WALL[most][free];
            }
        }
        total
    }

    /// The same count by listing, for a carry limit past the tables (no game has one).
    #[cold]
    fn spread_count_slowly(&self, variant: &Variant, from: usize, top: Piece) -> u64 {
        let mut listed = Vec::new();
        self.spreads_from(variant, from, top, &mut listed);
        listed.len() as u64
    }
}

/// The largest carry the count tables cover: Pathstone's carry limit is the board's side.
const MAX_CARRY: usize = MAX_SIZE as usize;

/// `COMPOSITIONS[n][k]`: the ways to drop `n` pieces on exactly `k` squares, one or more
/// on each (`C(n - 1, k - 1)`, and 1 for nothing on nothing).
const COMPOSITIONS: [[u64; MAX_CARRY + 1]; MAX_CARRY + 1] = {
    let mut table = [[0; MAX_CARRY + 1]; MAX_CARRY + 1];
    table[0][0] = 1;
    let mut n = 1;
    while n <= MAX_CARRY {
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

/// `SPREADS[most][free]`: carries of 1 to `most` pieces dropped on at most `free` squares.
const SPREADS: [[u64; MAX_CARRY + 1]; MAX_CARRY + 1] = {
    let mut table = [[0; MAX_CARRY + 1]; MAX_CARRY + 1];
    let mut most = 1;
    while most <= MAX_CARRY {
        let mut free = 0;
        while free <= MAX_CARRY {
            let mut squares = 1;
            let mut sum = 0;
            while squares <= free {
                sum += COMPOSITIONS[most][squares];
                squares += 1;
            }
            table[most][free] = table[most - 1][free] + sum;
            free += 1;
        }
        most += 1;
    }
    table
};

/// `CROWN_ONTO_WALL[most][free]`: carries of 1 to `most` pieces topped by a Crown that
/// fill all `free` squares and then drop the Crown alone onto the wall beyond.
const CROWN_ONTO_WALL: [[u64; MAX_CARRY + 1]; MAX_CARRY + 1] = {
    let mut table = [[0; MAX_CARRY + 1]; MAX_CARRY + 1];
    let mut most = 1;
    while most <= MAX_CARRY {
        let mut free = 0;
        while free <= MAX_CARRY {
            table[most][free] = table[most - 1][free] + COMPOSITIONS[most - 1][free];
            free += 1;
        }
        most += 1;
    }
    table
};

/// Calls `emit` with every way to drop `left` more pieces, one or more per square, after
/// `drops[..used]`: on at most `room` more squares, or on exactly `room` if `exact`.
fn drop_patterns(
    left: usize,
    room: usize,
    exact: bool,
    drops: &mut [u8; MAX_DROPS],
    used: usize,
    emit: &mut dyn FnMut(&[u8; MAX_DROPS], usize),
) {
    if left == 0 {
        if !exact || room == 0 {
            emit(drops, used);
        }
        return;
    }
    if room == 0 {
        return;
    }
    for first in 1..=left {
        drops[used] = u8::try_from(first).expect("a carry lifts at most u8::MAX");
        drop_patterns(left - first, room - 1, exact, drops, used + 1, emit);
    }
}

// Making and unmaking moves: the one place the board changes.
impl State {
    pub(super) fn apply(&mut self, action: Action) -> Undo {
        let before = Undo {
            action,
            flattened: false,
            to_move: self.to_move,
            move_number: self.move_number,
            turns: self.turns,
            reserves: self.reserves,
        };
        let flattened = match action {
            Action::Place { at, piece } => {
                self.stacks[at].push(piece);
                let reserve = &mut self.reserves[piece.color.index()];
                match piece.kind {
                    Kind::Crown => reserve.crowns -= 1,
                    Kind::Flat | Kind::Wall => reserve.stones -= 1,
                }
                false
            }
            Action::Spread(spread) => self.spread(&spread),
        };
        // Saturating: a TPS may start near the counters' limit.
        self.turns = self.turns.saturating_add(1);
        if self.to_move == Color::Black {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.to_move = self.to_move.other();
        Undo { flattened, ..before }
    }

    /// Drops the lifted group bottom first; returns whether a wall was flattened.
    pub(super) fn spread(&mut self, spread: &Spread) -> bool {
        let mut origin = std::mem::take(&mut self.stacks[spread.from]);
        let base = origin.len() - spread.lifted();
        let mut next = base;
        let mut at = spread.from;
        let mut flattened = false;
        for &drop in spread.drops() {
            at = self.step(at, spread.dir);
            let target = &mut self.stacks[at];
            if let Some(top) = target.last_mut()
                && top.kind == Kind::Wall
            {
                top.kind = Kind::Flat;
                flattened = true;
            }
            let end = next + usize::from(drop);
            target.extend_from_slice(&origin[next..end]);
            next = end;
        }
        origin.truncate(base);
        self.stacks[spread.from] = origin;
        flattened
    }

    pub(super) fn undo(&mut self, undo: &Undo) {
        match undo.action {
            Action::Place { at, .. } => {
                self.stacks[at].pop();
            }
            Action::Spread(spread) => self.unspread(&spread, undo.flattened),
        }
        self.to_move = undo.to_move;
        self.move_number = undo.move_number;
        self.turns = undo.turns;
        self.reserves = undo.reserves;
    }

    pub(super) fn unspread(&mut self, spread: &Spread, flattened: bool) {
        let mut origin = std::mem::take(&mut self.stacks[spread.from]);
        let mut at = spread.from;
        for &drop in spread.drops() {
            at = self.step(at, spread.dir);
            let target = &mut self.stacks[at];
            let keep = target.len() - usize::from(drop);
            origin.extend_from_slice(&target[keep..]);
            target.truncate(keep);
        }
        if flattened && let Some(top) = self.stacks[at].last_mut() {
            top.kind = Kind::Wall;
        }
        self.stacks[spread.from] = origin;
    }
}

// Checking a move from outside, with a reason when it is illegal.
impl State {
    pub(super) fn check(
        &self,
        variant: &Variant,
        mv: &Move,
    ) -> Result<Action, RulesError> {
        match mv {
            Move::Place { square, kind } => self.check_place(variant, *square, *kind),
            Move::Carry { from, dir, drops, order } => {
                self.check_carry(variant, *from, *dir, drops, order.as_deref())
            }
        }
    }

    pub(super) fn check_carry(
        &self,
        variant: &Variant,
        from: Square,
        dir: Dir,
        drops: &[u8],
        order: Option<&[Color]>,
    ) -> Result<Action, RulesError> {
        let at = self.index_of(from)?;
        if self.in_opening(variant) {
            return Err(crate::rules_err!(
                "on their first turn each player places a flat of the opponent's colour: \
                 carries start on the second turn"
            ));
        }
        let top = self.check_lift(variant, from, at, drops)?;
        self.check_path(at, dir, drops, top)?;
        if let Some(order) = order {
            let stack = &self.stacks[at];
            let lifted: usize = drops.iter().map(|&d| usize::from(d)).sum();
            check_order(&stack[stack.len() - lifted..], order)?;
        }
        Ok(Action::Spread(Spread::new(at, dir, drops)))
    }

    pub(super) fn check_place(
        &self,
        variant: &Variant,
        square: Square,
        kind: Kind,
    ) -> Result<Action, RulesError> {
        let at = self.index_of(square)?;
        if let Some(top) = self.top(at) {
            return Err(crate::rules_err!(
                "{square} is occupied (a stack of {}, {} on top): place only on an empty \
                 square",
                self.stacks[at].len(),
                top.color
            ));
        }
        let mover = self.to_move;
        if self.in_opening(variant) {
            if kind != Kind::Flat {
                return Err(crate::rules_err!(
                    "on their first turn each player places a flat of the opponent's colour, \
                     not a {}",
                    kind.name()
                ));
            }
            let color = mover.other();
            self.check_reserve(color, kind)?;
            return Ok(Action::Place { at, piece: Piece { color, kind } });
        }
        match kind {
            Kind::Wall if !variant.walls => {
                Err(crate::rules_err!("walls are not used in {}", variant.id))
            }
            Kind::Crown if variant.crowns == 0 => {
                Err(crate::rules_err!("Crowns are not used in {}", variant.id))
            }
            _ => self.check_reserve(mover, kind),
        }?;
        Ok(Action::Place { at, piece: Piece { color: mover, kind } })
    }

    pub(super) fn check_reserve(
        &self,
        color: Color,
        kind: Kind,
    ) -> Result<(), RulesError> {
        let reserve = self.reserves[color.index()];
        let (left, what) = match kind {
            Kind::Crown => (reserve.crowns, "Crowns"),
            Kind::Flat | Kind::Wall => (reserve.stones, "stones"),
        };
        if left == 0 {
            return Err(crate::rules_err!(
                "{} has no {what} left to place",
                color.name()
            ));
        }
        Ok(())
    }

    /// Checks what is lifted; returns the top piece, which travels furthest.
    pub(super) fn check_lift(
        &self,
        variant: &Variant,
        from: Square,
        at: usize,
        drops: &[u8],
    ) -> Result<Piece, RulesError> {
        let Some(top) = self.top(at) else {
            return Err(crate::rules_err!("{from} is empty: there is nothing to carry"));
        };
        if top.color != self.to_move {
            return Err(crate::rules_err!(
                "{from} has {} on top: {} carries only stacks with their own piece on top",
                top.color.name(),
                self.to_move.name()
            ));
        }
        if drops.is_empty() || drops.contains(&0) {
            return Err(crate::rules_err!(
                "a carry drops at least one piece on each square it crosses, found drops {:?}",
                drops
            ));
        }
        let lifted: usize = drops.iter().map(|&d| usize::from(d)).sum();
        if lifted > usize::from(variant.carry_limit) {
            return Err(crate::rules_err!(
                "cannot carry {lifted}: the carry limit is {}",
                variant.carry_limit
            ));
        }
        let height = self.stacks[at].len();
        if lifted > height {
            return Err(crate::rules_err!(
                "cannot lift {lifted} from {from}: the stack there has {height}"
            ));
        }
        Ok(top)
    }

    pub(super) fn check_path(
        &self,
        from: usize,
        dir: Dir,
        drops: &[u8],
        top: Piece,
    ) -> Result<(), RulesError> {
        let room = self.room(from, dir);
        if drops.len() > room {
            return Err(crate::rules_err!(
                "the carry from {} drops on {} squares {}, but the board has {room} that way",
                self.square_at(from),
                drops.len(),
                dir.name()
            ));
        }
        let mut at = from;
        for (i, &drop) in drops.iter().enumerate() {
            at = self.step(at, dir);
            let alone_last = i + 1 == drops.len() && drop == 1 && top.kind == Kind::Crown;
            match self.top(at).map(|piece| piece.kind) {
                Some(Kind::Crown) => {
                    return Err(crate::rules_err!(
                        "{} has a Crown on top, and nothing moves onto a Crown",
                        self.square_at(at)
                    ));
                }
                Some(Kind::Wall) if !alone_last => {
                    return Err(crate::rules_err!(
                        "{} has a wall on top: only a Crown moving alone, as the last drop, \
                         may move onto it",
                        self.square_at(at)
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

fn check_order(lifted: &[Piece], order: &[Color]) -> Result<(), RulesError> {
    let colors: Vec<Color> = lifted.iter().map(|piece| piece.color).collect();
    if order.len() != colors.len() {
        return Err(crate::rules_err!(
            "the stone list names {} stones, but {} are lifted",
            order.len(),
            colors.len()
        ));
    }
    if order != colors {
        return Err(crate::rules_err!(
            "the lifted group must be dropped in order, bottom first: {}, found {}",
            then_list(&colors),
            then_list(order)
        ));
    }
    Ok(())
}

fn then_list(colors: &[Color]) -> String {
    colors.iter().map(ToString::to_string).collect::<Vec<_>>().join(" then ")
}

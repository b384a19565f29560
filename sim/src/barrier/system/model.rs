//! The behavioural parts of the barrier system around the RTL cluster: the front end with the
//! world-space pipelines and the crossbar ([`FrontEnd`]), the fixed-latency stages
//! ([`Stage`]) and the render-target model that checks BR-6 while the run goes ([`Watch`]).
use super::config::{Command, Mode, SystemConfig, SystemResult};
use crate::scenario::RunError;
use ppu_hdl::barrier::item::ScreenItem;
use std::collections::{BTreeMap, HashSet, VecDeque};

/// One item of the command stream, after the mode has decided what a barrier becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A primitive, by API-order index.
    Prim(usize),
    /// A barrier; `drain`: the front end also waits for idle behind it (prior art).
    Barrier {
        tiled: bool,
        drain: bool,
    },
    End,
}

/// What waits in front of a tiling unit.
#[derive(Debug, Clone)]
enum Feed {
    Prim {
        index: usize,
        tiles: Vec<u64>,
        next: usize,
    },
    Barrier {
        tiled: bool,
    },
    End,
}

/// The front end, the world-space pipelines and the crossbar.
pub struct FrontEnd {
    pipes: usize,
    world_latency: u64,
    items: Vec<Item>,
    ids: Vec<u64>,
    /// routes[prim][pipe]: the cache tiles of that pipeline (BR-2).
    pub routes: Vec<Vec<Vec<u64>>>,
    next: usize,
    world: VecDeque<(u64, Item)>,
    world_capacity: usize,
    feeds: Vec<VecDeque<Feed>>,
    draining: bool,
}

/// The command stream of a configuration: primitives in API order, barriers as `mode` says,
/// the end marker last.
pub fn items_of(cfg: &SystemConfig) -> (Vec<Item>, Vec<u64>, Vec<[i64; 4]>) {
    let mut items = vec![];
    let mut ids = vec![];
    let mut boxes = vec![];
    for c in &cfg.commands {
        match c {
            Command::Draw(prims) => {
                for p in prims {
                    items.push(Item::Prim(ids.len()));
                    ids.push(p.id);
                    boxes.push(p.bbox);
                }
            }
            Command::Barrier { tiled } => items.push(match cfg.mode {
                Mode::AsGiven => Item::Barrier {
                    tiled: *tiled,
                    drain: false,
                },
                Mode::NonTiled => Item::Barrier {
                    tiled: false,
                    drain: false,
                },
                Mode::Tiled => Item::Barrier {
                    tiled: true,
                    drain: false,
                },
                Mode::Drain => Item::Barrier {
                    tiled: false,
                    drain: true,
                },
            }),
        }
    }
    items.push(Item::End);
    (items, ids, boxes)
}

impl FrontEnd {
    pub fn new(cfg: &SystemConfig) -> Self {
        let (items, ids, boxes) = items_of(cfg);
        let routes = boxes.iter().map(|b| cfg.route(*b)).collect();
        FrontEnd {
            pipes: cfg.pipes,
            world_latency: cfg.latency.world.max(1),
            items,
            ids,
            routes,
            next: 0,
            world: VecDeque::new(),
            world_capacity: cfg.pipes * (cfg.latency.world as usize + 1),
            feeds: vec![VecDeque::new(); cfg.pipes],
            draining: false,
        }
    }

    pub fn items(&self) -> &[Item] {
        &self.items
    }

    pub fn prim_id(&self, index: usize) -> u64 {
        self.ids[index]
    }

    /// The entry offered to tiling unit `pipe` this cycle.
    pub fn feed_head(&self, pipe: usize) -> Option<ScreenItem> {
        self.feeds[pipe].front().map(|f| match f {
            Feed::Prim { index, tiles, next } => ScreenItem::prim(*index as u64, tiles[*next]),
            Feed::Barrier { tiled } => ScreenItem::barrier(tiled.then_some(0)),
            Feed::End => ScreenItem::end(),
        })
    }

    /// Tiling unit `pipe` took its entry.
    pub fn feed_taken(&mut self, pipe: usize) {
        let done = match self.feeds[pipe].front_mut() {
            Some(Feed::Prim { tiles, next, .. }) => {
                *next += 1;
                *next == tiles.len()
            }
            Some(_) => true,
            None => false,
        };
        if done {
            self.feeds[pipe].pop_front();
        }
    }

    pub fn feed_empty(&self, pipe: usize) -> bool {
        self.feeds[pipe].is_empty()
    }

    /// Every command issued and through the crossbar.
    pub fn finished(&self) -> bool {
        self.next == self.items.len()
            && self.world.is_empty()
            && self.feeds.iter().all(|f| f.is_empty())
    }

    /// The crossbar, then the issue of new commands. `idle`: every pipeline is empty (the
    /// caller's view). Returns whether anything moved.
    pub fn step(&mut self, cycle: u64, idle: bool, result: &mut SystemResult) -> bool {
        let mut moved = false;
        for _ in 0..self.pipes {
            match self.world.front() {
                Some(&(ready, item)) if ready <= cycle => {
                    self.cross(item);
                    let peak = self.feeds.iter().map(|f| f.len()).max().unwrap_or(0);
                    result.max_feed = result.max_feed.max(peak as u64);
                    self.world.pop_front();
                    moved = true;
                }
                _ => break,
            }
        }
        if self.draining && idle && self.world.is_empty() {
            self.draining = false;
        }
        let mut issued = 0;
        while !self.draining
            && issued < self.pipes
            && self.next < self.items.len()
            && self.world.len() < self.world_capacity
        {
            let item = self.items[self.next];
            self.world.push_back((cycle + self.world_latency, item));
            self.next += 1;
            issued += 1;
            if let Item::Barrier { drain: true, .. } = item {
                self.draining = true;
            }
        }
        if issued == 0 && self.next < self.items.len() {
            result.upstream_stall_cycles += 1;
        }
        moved || issued > 0
    }

    /// Send one item through the crossbar into the buffers of the pipelines it goes to. They
    /// hold any number of items: they stand for the primitive buffers in L2 that a real crossbar
    /// writes and the screen-space circular buffer (BR-1). A bounded buffer filled in API order
    /// would let the pipelines that hold work behind a tiled barrier stop the input another
    /// pipeline still needs to reach the flush that sends that barrier (a deadlock: flush
    /// points are fixed by the commands, BR-3). The peak is reported as `max_feed`.
    fn cross(&mut self, item: Item) {
        match item {
            Item::Prim(index) => {
                for p in 0..self.pipes {
                    if !self.routes[index][p].is_empty() {
                        self.feeds[p].push_back(Feed::Prim {
                            index,
                            tiles: self.routes[index][p].clone(),
                            next: 0,
                        });
                    }
                }
            }
            Item::Barrier { tiled, .. } => self
                .feeds
                .iter_mut()
                .for_each(|f| f.push_back(Feed::Barrier { tiled })),
            Item::End => self.feeds.iter_mut().for_each(|f| f.push_back(Feed::End)),
        }
    }
}

/// A fixed-latency stage: an item pushed in cycle t can leave from cycle t + latency, one per
/// cycle, in order; it holds `latency + extra` items.
pub struct Stage {
    latency: u64,
    capacity: usize,
    items: VecDeque<(u64, ScreenItem)>,
}

impl Stage {
    pub fn new(latency: u64, extra: usize) -> Self {
        let latency = latency.max(1);
        Stage {
            latency,
            capacity: latency as usize + extra.max(1),
            items: VecDeque::new(),
        }
    }
    pub fn has_room(&self) -> bool {
        self.items.len() < self.capacity
    }
    pub fn push(&mut self, cycle: u64, item: ScreenItem) {
        self.items.push_back((cycle + self.latency, item));
    }
    pub fn ready_head(&self, cycle: u64) -> Option<ScreenItem> {
        self.items
            .front()
            .filter(|(t, _)| *t <= cycle)
            .map(|(_, i)| *i)
    }
    pub fn pop(&mut self) {
        self.items.pop_front();
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// The render-target model (BR-6, live): what each cache tile has been written by, and the
/// barrier a primitive's reads depend on.
pub struct Watch {
    pipes: usize,
    /// Per primitive: API-order position (primitives before it) of the last tiled and the last
    /// non-tiled barrier before it.
    after_tiled: Vec<usize>,
    after_nontiled: Vec<usize>,
    /// Per cache tile: primitives that still have entries to leave ROP there, with how many.
    unwritten: Vec<BTreeMap<usize, u32>>,
    unwritten_any: BTreeMap<usize, u32>,
    passed: HashSet<(usize, usize, u64)>,
    tokens: u64,
    releases: u64,
}

impl Watch {
    pub fn new(cfg: &SystemConfig, fe: &FrontEnd) -> Self {
        let mut after_tiled = vec![];
        let mut after_nontiled = vec![];
        let (mut lt, mut ln) = (0, 0);
        for item in fe.items() {
            match *item {
                Item::Prim(_) => {
                    after_tiled.push(lt);
                    after_nontiled.push(ln);
                }
                Item::Barrier { tiled: true, .. } => lt = after_tiled.len(),
                Item::Barrier { tiled: false, .. } => ln = after_tiled.len(),
                Item::End => {}
            }
        }
        let mut unwritten = vec![BTreeMap::new(); cfg.cache_tiles()];
        let mut unwritten_any = BTreeMap::new();
        for (q, route) in fe.routes.iter().enumerate() {
            for tiles in route {
                for &t in tiles {
                    *unwritten[t as usize].entry(q).or_insert(0) += 1;
                    *unwritten_any.entry(q).or_insert(0) += 1;
                }
            }
        }
        Watch {
            pipes: cfg.pipes,
            after_tiled,
            after_nontiled,
            unwritten,
            unwritten_any,
            passed: HashSet::new(),
            tokens: 0,
            releases: 0,
        }
    }

    /// Primitive `prim` passes PROP of `pipe` for cache tile `tile`: it reads the tile.
    pub fn prop_pass(
        &mut self,
        cycle: u64,
        pipe: usize,
        prim: usize,
        tile: u64,
    ) -> Result<(), RunError> {
        if !self.passed.insert((pipe, prim, tile)) {
            return Err(RunError::Violation(format!(
                "cycle {}: primitive {} passed PROP of pipeline {} for cache tile {} twice",
                cycle, prim, pipe, tile
            )));
        }
        let first_tile = self.unwritten[tile as usize].keys().next().copied();
        if let Some(q) = first_tile.filter(|&q| q < self.after_tiled[prim]) {
            return Err(RunError::Violation(format!(
                "cycle {}: BR-6: primitive {} passed PROP of pipeline {} for cache tile {} before primitive {} (before its tiled barrier) left ROP there",
                cycle, prim, pipe, tile, q
            )));
        }
        let first_any = self.unwritten_any.keys().next().copied();
        if let Some(q) = first_any.filter(|&q| q < self.after_nontiled[prim]) {
            return Err(RunError::Violation(format!(
                "cycle {}: BR-6: primitive {} passed PROP of pipeline {} before primitive {} (before its non-tiled barrier) left ROP",
                cycle, prim, pipe, q
            )));
        }
        Ok(())
    }

    /// An entry left ROP: the tile is written.
    pub fn rop_done(&mut self, _pipe: usize, prim: usize, tile: u64) {
        for map in [&mut self.unwritten[tile as usize], &mut self.unwritten_any] {
            if let Some(n) = map.get_mut(&prim) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&prim);
                }
            }
        }
    }

    pub fn token(&mut self) {
        self.tokens += 1;
    }

    pub fn release(&mut self) {
        self.releases += 1;
    }

    /// Every barrier that reached the back end from every pipeline has been released.
    pub fn all_released(&self) -> bool {
        self.releases * self.pipes as u64 == self.tokens
    }

    pub fn describe(&self) -> String {
        format!(
            "{} entries not written, {} barrier tokens at the back end, {} releases",
            self.unwritten_any.values().sum::<u32>(),
            self.tokens,
            self.releases
        )
    }
}

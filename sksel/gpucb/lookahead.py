"""GP-UCB's speculation: the steps the sequential run is likely to take next, for free workers.

The run is simulated a few picks ahead from where it stands, the scores it
waits for drawn from its posterior; a step at least half the simulated runs
take goes to a free worker; past those, a look the run will need, unless at
least half the simulated runs stop within their picks (the answer is about
to be known). A candidate evaluated in full is looked at only as the leader,
whose looks the looks of others at their sizes are compared with.
Asynchronously (GP-BUCB), a free worker gets the upper-bound argmax given
the evaluations running. Mixed into
:class:`~sksel.gpucb.policy.GPUCBPolicy`, whose attributes it reads.
"""

import numpy as np

from .._core.policy import Outcome


class Lookahead:
    """The speculative steps of :class:`~sksel.gpucb.policy.GPUCBPolicy` (see the module)."""

    _LOOKAHEAD_RUNS = 8
    _LOOKAHEAD_DEPTH = 3
    _SPECULATE_SHARE = 0.5

    def _speculate(self):
        """An action to start now, of a candidate neither running nor told; or None.

        Asynchronously a decision, while fewer than `n_iter` picks are made
        and the answer is not known (`tol`): the UCB argmax given the
        candidates running. Otherwise the likeliest of the sequential run's
        next steps (`_likely_picks`) of a candidate free (or a look of one
        evaluated, the leader's), or None where no step is likely enough.
        """
        busy = {c for c, _ in self.pending} | {c for c, _ in self.waiting}
        free = [c for c in self._available() if c not in busy]
        if self.asynchronous and (self.n_evaluations_ + len(busy) >= self.n_iter
                                  or self._answer_known(free)):
            return None
        if not self.asynchronous:
            sure = self._sure()
            if sure is not None:
                return sure
            # A look of a candidate evaluated in full is only ever the leader's, the reference
            # of the looks of others at its size.
            steps = [step for step in self._likely_picks() if step not in self._pending
                     and step not in self._told and (step[0] in free or (
                         step[1] != self.resource and step[0] == self.best_))]
            if steps:
                return steps[0]
            # Where the run is likely to stop within the picks simulated, a step none of them
            # takes is one the run will not ask for: the worker idles rather than waste it.
            return None if self._stops_soon else self._next_look_of_any(free)
        candidate = self._ucb_argmax(free, pending=sorted(busy))
        if candidate is None:
            return None
        step = self._next_step(candidate)
        return None if step in self._pending or step in self._told else step

    def _next_look_of_any(self, free):
        """The first of :meth:`_looks_the_run_will_need` neither running nor told, of the
        leader or of a candidate of `free`; or None."""
        if self._looks_ahead is None:
            self._looks_ahead = self._looks_the_run_will_need()
        leader, steps = self._looks_ahead
        return next((step for step in steps if (step[0] in free or step[0] == leader)
                     and step not in self._pending and step not in self._told), None)

    def _looks_the_run_will_need(self):
        """Looks (steps on a subsample) the run is likely to make, for a worker that would
        otherwise idle: the leader's at each size of the looks left of a candidate whose
        next step is a look (before there is a leader, the first pick's, at each size of a
        ladder: the run waits for its full evaluation), the smallest first; then the next
        look of each candidate left (before there is a leader, its first), the highest
        upper bound first, as ``(leader, steps)``. Computed once per told result.

        A look is cheap, and the run looks at each candidate it picks before its
        full evaluation, against the leader's look at the same size: looks made side
        by side save the wall of looks made one after another.
        """
        leader, decision = self.best_, self.next_decision
        if leader is None and decision is not None and decision[1] == self.resource:
            leader = decision[0]
        if not self.looks or self.looks_contradicted_ or leader is None:
            return leader, []
        left = self._in_play([c for c in self._available() if c != leader], leader)
        # The leader's looks serve the looks of others at their sizes: once there is a
        # leader, those of the candidates whose next step is a look (others go to all the
        # rows, and a look of the leader would serve none).
        looking = left if self.best_ is None else [c for c in left if self._looks_next(c)]
        sizes = sorted({n for c in looking for n in self._ladder(c)
                        if n not in self._look_scores.get(c, {})})
        steps = [(leader, n) for n in sizes if n not in self._look_scores.get(leader, {})]
        mean, std = self._posterior(())
        ucb = mean + np.sqrt(self.beta(self.n_evaluations_ + 1)) * std
        for candidate in sorted(left, key=lambda c: (-ucb[c], self._tie_rank[c])):
            # Before there is a leader, a candidate's next step is its full evaluation.
            step = (self._next_step(candidate) if self.best_ is not None
                    else (candidate, self._next_look(candidate)))
            if step[1] is not None and step[1] != self.resource:
                steps.append((candidate, step[1]))
        return leader, steps

    def _in_play(self, candidates, leader):
        """`candidates` but those the stop leaves out, whose looks would not matter.

        Those least likely to end more than `tol` above `leader`, whose
        probabilities of it (:meth:`probability_left`'s terms) sum to at most
        `risk`: the run stops without evaluating them once the others are
        evaluated and none does better than the posterior expects. All of
        them without `tol`.
        """
        if self.tol is None or self.risk <= 0:
            return candidates
        terms = {c: self.probability_left([c], leader=leader) for c in candidates}
        total, out = 0.0, set()
        for c in sorted(candidates, key=lambda c: (terms[c], c)):
            total += terms[c]
            if total > self.risk:
                break
            out.add(c)
        return [c for c in candidates if c not in out]

    def _sure(self):
        """Asynchronously, the next pick; with a batch, the next pick that joins it and is
        neither running nor told (one that is joins it too, and the next is tried); else
        None."""
        if self.asynchronous:
            return self._speculate()
        while self.batch_size > 1:
            action = self._next_of_batch()
            if action is None or (action not in self._pending and action not in self._told):
                return action
        return None

    @property
    def _stops_soon(self):
        """Whether at least half the simulated runs of :meth:`_likely_picks` stopped within
        the picks they simulate: the run is near its end."""
        self._likely_picks()
        return self._stopping >= self._SPECULATE_SHARE * self._LOOKAHEAD_RUNS

    def _likely_picks(self):
        """Steps ``(candidate, resource)`` the sequential run is likely to take soon, the
        likeliest first.

        The run is simulated `_LOOKAHEAD_RUNS` times from where it stands,
        `_LOOKAHEAD_DEPTH` picks ahead (beyond the picks of its batch made already), every
        score it waits for drawn from
        the posterior predictive of the simulated run (a result told already
        is used as it is), the prior as fitted now. The steps at least half
        the simulated runs take (`_SPECULATE_SHARE`), ranked by how many take
        them, then by how soon: a step, not a candidate, since a candidate
        the run picks may be looked at first rather than evaluated in full.
        Computed once per told result.
        """
        if self._likely is None:
            self._likely = self._simulate_ahead()
        return self._likely

    def _simulate_ahead(self):
        """The ranked steps of `_likely_picks`."""
        rng = np.random.RandomState(len(self.history_))
        picked, depth_sum = {}, {}
        self._stopping = 0  # the simulated runs that stopped within their picks
        for _ in range(self._LOOKAHEAD_RUNS):
            run = self._copy_of_run()
            action = self.next_decision
            for depth in range(self._LOOKAHEAD_DEPTH + len(self._ahead)):
                if action is None:
                    self._stopping += 1
                    break
                step = (int(action[0]), action[1])
                picked[step] = picked.get(step, 0) + 1
                depth_sum[step] = depth_sum.get(step, 0) + depth
                outcome = self.waiting.get(action)
                if outcome is None:
                    outcome = run._simulated_outcome(action, rng)
                run._decide_with(action, outcome)
                action = run._decide()
        likely = [step for step, n in picked.items()
                  if n >= self._SPECULATE_SHARE * self._LOOKAHEAD_RUNS]
        return sorted(likely, key=lambda step: (-picked[step], depth_sum[step] / picked[step],
                                                step[0]))

    def _simulated_outcome(self, action, rng):
        """An outcome of `action` drawn from this run's posterior predictive.

        A full evaluation scores its posterior draw plus noise; the leader's
        own look, its full score; another candidate's look, the leader's look
        score plus the posterior gap between them, with the gap model's spread.
        """
        candidate, size = action
        leader = self.best_
        if size != self.resource and candidate in self._observed:
            return Outcome(self._observed[candidate], None, None, False, False)
        mean, std = self._posterior(())
        if size == self.resource:
            score = rng.normal(mean[candidate], np.hypot(std[candidate], self.noise))
            return Outcome(score, None, None, False, False)
        _, scale = self.gap_model.mean_scale(self._gap_features(candidate, leader, score=0.5))
        score = rng.normal(self._look_scores[leader][size] + mean[candidate] - mean[leader],
                           np.hypot(std[candidate], scale[0] * self._look_sd))
        return Outcome(self._within_scores(score), None, None, False, False)

    def _copy_of_run(self):
        """A copy of the sequential run that simulated results can be folded into.

        Its prior is this run's as fitted now: empirical Bayes and the
        kernel prior's level and scale are not refitted to simulated scores,
        which would cost a fit per simulated pick.
        """
        run = self._branch()
        _, run.mean, run.cov = self._observed_prior()
        run.fit_scale = run.empirical_bayes = False
        run._observed, run._failed = dict(self._observed), set(self._failed)
        run._times, run._extra_var = dict(self._times), dict(self._extra_var)
        run._fold_scores, run.folds_used_ = dict(self._fold_scores), dict(self.folds_used_)
        run._look_scores = {c: dict(scores) for c, scores in self._look_scores.items()}
        run._look_obs = dict(self._look_obs)
        run.dropped_ = set(self.dropped_)
        run._ahead = list(self._ahead)
        return run

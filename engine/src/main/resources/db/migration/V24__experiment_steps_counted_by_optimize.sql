-- People's first opens and clicks of an experiment's emails are counted by the experiments' own code
-- (dev.tidings.optimize.ExperimentSteps), told of each new funnel step inside the transaction that records
-- it, instead of by a trigger on the funnel's table that wrote the experiments' counts.
DROP TRIGGER message_steps_to_experiments ON message_steps;
DROP FUNCTION message_steps_to_experiments();

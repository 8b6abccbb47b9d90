-- Power-ups without a model: the extractive default offers a power-up when the visitor's message
-- is close to one of its example phrases, by the trigram similarity retrieval uses
-- (extensions.word_similarity: how much of the phrase appears in the message, and the reverse
-- for short messages). The engine calls it as the service role.
create function public.match_power_ups(bot_id uuid, query text, threshold real default 0.6)
returns table (power_up_id uuid, score real)
language sql
stable
security invoker
set search_path = ''
as $$
  select p.id, max(greatest(extensions.word_similarity(lower(ph), lower(match_power_ups.query)),
                            extensions.word_similarity(lower(match_power_ups.query), lower(ph)))) as score
  from public.power_ups p
  cross join lateral unnest(p.example_phrases) as ph
  where p.bot_id = match_power_ups.bot_id and p.enabled and char_length(btrim(ph)) > 0
  group by p.id
  having max(greatest(extensions.word_similarity(lower(ph), lower(match_power_ups.query)),
                      extensions.word_similarity(lower(match_power_ups.query), lower(ph)))) >= match_power_ups.threshold
  order by score desc;
$$;
comment on function public.match_power_ups(uuid, text, real) is
  'Enabled power-ups of a bot whose example phrases are close to the message (trigram word similarity), best first. The engine (service role) asks it for the extractive default.';
revoke execute on function public.match_power_ups(uuid, text, real) from public, anon, authenticated;
grant execute on function public.match_power_ups(uuid, text, real) to service_role;

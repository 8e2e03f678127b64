-- The namespace owner used to be kept in the team as Owner (50), a level no member can be given.
-- GitLab 7.14 made the creator of a personal project a Master (40) and left the owner's Owner
-- rights to owning the namespace; owners' rows are now ordinary Master rows.
update members m set access_level = 40, updated_at = now()
from project_facts f
where f.project_id = m.project_id and f.owner_id = m.user_id and m.access_level = 50;

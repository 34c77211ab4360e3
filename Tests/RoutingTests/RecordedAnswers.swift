import Foundation

// Answers of real engines, recorded on 127.0.0.1 over samples/data/andorra/andorra.osm.pbf
// (OpenStreetMap, 2013) with scripts/engines/osrm.sh and valhalla.sh, for one leg in Andorra la
// Vella from (42.5063, 1.5218) to (42.5085, 1.5265): out of a roundabout, right, straight on along
// Avinguda Meritxell, left into Carrer Bisbe Príncep Iglésias. Kept as they came, byte for byte.

/// OSRM 26.10 (osrm-bindings wheel, car profile, MLD):
/// `GET /route/v1/driving/1.5218,42.5063;1.5265,42.5085?steps=true&overview=full&geometries=geojson&annotations=false`.
let osrmAndorraRoute = #"""
{"code":"Ok","routes":[{"legs":[{"steps":[{"intersections":[{"out":0,"entry":[true],"bearings":[311],"location":[1.52182,42.506317]}],"driving_side":"right","geometry":{"coordinates":[[1.52182,42.506317],[1.521787,42.506338],[1.521726,42.506351],[1.521666,42.506343],[1.521633,42.506328]],"type":"LineString"},"maneuver":{"bearing_after":311,"bearing_before":0,"location":[1.52182,42.506317],"type":"depart"},"name":"","mode":"driving","weight":6.6,"duration":6.6,"distance":17},{"intersections":[{"out":0,"in":1,"entry":[true,false,true],"bearings":[0,60,225],"location":[1.521633,42.506328]}],"driving_side":"right","geometry":{"coordinates":[[1.521633,42.506328],[1.521618,42.506653],[1.522157,42.506863],[1.522304,42.506926],[1.522483,42.507189],[1.522486,42.507377],[1.522471,42.507585]],"type":"LineString"},"maneuver":{"exit":1,"bearing_after":357,"bearing_before":237,"location":[1.521633,42.506328],"modifier":"right","type":"exit roundabout"},"name":"","mode":"driving","weight":17.3,"duration":17.3,"distance":176.9},{"intersections":[{"out":0,"in":1,"entry":[true,false,true],"bearings":[75,180,255],"location":[1.522471,42.507585]},{"out":0,"in":1,"entry":[true,false,true],"bearings":[90,255,315],"location":[1.523377,42.507747]}],"driving_side":"right","geometry":{"coordinates":[[1.522471,42.507585],[1.522883,42.50765],[1.523377,42.507747],[1.524063,42.507779],[1.524334,42.507771],[1.524771,42.507884]],"type":"LineString"},"maneuver":{"bearing_after":77,"bearing_before":355,"location":[1.522471,42.507585],"modifier":"right","type":"turn"},"name":"","mode":"driving","weight":12.8,"duration":12.8,"distance":193.4},{"intersections":[{"out":0,"in":1,"entry":[true,false,true],"bearings":[75,255,330],"location":[1.524771,42.507884]}],"driving_side":"right","geometry":{"coordinates":[[1.524771,42.507884],[1.525535,42.508106],[1.525706,42.508131]],"type":"LineString"},"maneuver":{"bearing_after":67,"bearing_before":70,"location":[1.524771,42.507884],"modifier":"straight","type":"turn"},"name":"Avinguda Meritxell","mode":"driving","weight":6.9,"duration":6.9,"distance":81.8},{"intersections":[{"out":0,"in":2,"entry":[true,true,false],"bearings":[30,75,255],"location":[1.525706,42.508131]}],"driving_side":"right","geometry":{"coordinates":[[1.525706,42.508131],[1.525818,42.508264],[1.526093,42.508365],[1.526419,42.508422],[1.526518,42.508437]],"type":"LineString"},"maneuver":{"bearing_after":30,"bearing_before":77,"location":[1.525706,42.508131],"modifier":"left","type":"turn"},"name":"Carrer Bisbe Príncep Iglésias","mode":"driving","weight":11.2,"duration":11.2,"distance":78.5},{"intersections":[{"in":0,"entry":[true],"bearings":[258],"location":[1.526518,42.508437]}],"driving_side":"right","geometry":{"coordinates":[[1.526518,42.508437],[1.526518,42.508437]],"type":"LineString"},"maneuver":{"bearing_after":0,"bearing_before":78,"location":[1.526518,42.508437],"modifier":"left","type":"arrive"},"name":"Carrer Bisbe Príncep Iglésias","mode":"driving","weight":0,"duration":0,"distance":0}],"weight":54.8,"summary":"Avinguda Meritxell, Carrer Bisbe Príncep Iglésias","duration":54.8,"distance":547.5}],"weight_name":"routability","geometry":{"coordinates":[[1.52182,42.506317],[1.521787,42.506338],[1.521726,42.506351],[1.521666,42.506343],[1.521633,42.506328],[1.521618,42.506653],[1.522157,42.506863],[1.522304,42.506926],[1.522483,42.507189],[1.522486,42.507377],[1.522471,42.507585],[1.522883,42.50765],[1.523377,42.507747],[1.524063,42.507779],[1.524334,42.507771],[1.524771,42.507884],[1.525535,42.508106],[1.525706,42.508131],[1.525818,42.508264],[1.526093,42.508365],[1.526419,42.508422],[1.526518,42.508437]],"type":"LineString"},"weight":54.8,"duration":54.8,"distance":547.5}],"waypoints":[{"hint":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","location":[1.52182,42.506317],"name":"","distance":2.503326801},{"hint":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","location":[1.526518,42.508437],"name":"Carrer Bisbe Príncep Iglésias","distance":7.152835719}]}
"""#

/// OSRM's real answer (HTTP 400) when a point has no road within its search radius.
let osrmNoSegment = #"""
{"message":"Could not find a matching segment for coordinate 0","code":"NoSegment"}
"""#

/// OSRM's answer (HTTP 400) when the points are on roads that do not connect, as OSRM's API
/// documentation and its cucumber tests write it.
let osrmNoRoute = #"""
{"code":"NoRoute","message":"Impossible route between points"}
"""#

/// OSRM's real answer (HTTP 400) to a malformed query.
let osrmInvalidQuery = #"""
{"message":"Query string malformed close to position 126","code":"InvalidQuery"}
"""#

/// Valhalla 3.9.1 (pyvalhalla wheel): `POST /route` with
/// `{"locations":[{"lat":42.5063,"lon":1.5218},{"lat":42.5085,"lon":1.5265}],"costing":"auto","directions_options":{"units":"kilometers"}}`.
let valhallaAndorraRoute = #"""
{"trip":{"locations":[{"type":"break","lat":42.5063,"lon":1.5218,"original_index":0},{"type":"break","lat":42.5085,"lon":1.5265,"side_of_street":"left","original_index":1}],"legs":[{"maneuvers":[{"type":1,"instruction":"Drive northwest.","verbal_succinct_transition_instruction":"Drive northwest.","verbal_pre_transition_instruction":"Drive northwest.","verbal_post_transition_instruction":"Continue for 20 meters.","bearing_after":296,"time":1.577,"length":0.016,"cost":1.459,"begin_shape_index":0,"end_shape_index":4,"roundabout_exit_count":2,"travel_mode":"drive","travel_type":"car"},{"type":27,"instruction":"Exit the roundabout.","verbal_succinct_transition_instruction":"Exit the roundabout.","verbal_pre_transition_instruction":"Exit the roundabout.","verbal_post_transition_instruction":"Continue for 200 meters.","bearing_before":251,"bearing_after":358,"time":19.584,"length":0.177,"cost":14.288,"begin_shape_index":4,"end_shape_index":10,"travel_mode":"drive","travel_type":"car"},{"type":10,"instruction":"Turn right onto Avinguda Meritxell.","verbal_transition_alert_instruction":"Turn right onto Avinguda Meritxell.","verbal_succinct_transition_instruction":"Turn right.","verbal_pre_transition_instruction":"Turn right onto Avinguda Meritxell.","verbal_post_transition_instruction":"Continue for 300 meters.","street_names":["Avinguda Meritxell"],"bearing_before":357,"bearing_after":78,"time":20.667,"length":0.276,"cost":36.568,"begin_shape_index":10,"end_shape_index":17,"travel_mode":"drive","travel_type":"car"},{"type":16,"instruction":"Bear left onto Carrer Bisbe Príncep Iglésias.","verbal_transition_alert_instruction":"Bear left onto Carrer Bisbe Príncep Iglésias.","verbal_succinct_transition_instruction":"Bear left. Then Your destination will be on the left.","verbal_pre_transition_instruction":"Bear left onto Carrer Bisbe Príncep Iglésias. Then Your destination will be on the left.","verbal_post_transition_instruction":"Continue for 80 meters.","street_names":["Carrer Bisbe Príncep Iglésias"],"bearing_before":76,"bearing_after":32,"time":8.23,"length":0.078,"cost":14.742,"begin_shape_index":17,"end_shape_index":21,"verbal_multi_cue":true,"travel_mode":"drive","travel_type":"car"},{"type":6,"instruction":"Your destination is on the left.","verbal_transition_alert_instruction":"Your destination will be on the left.","verbal_pre_transition_instruction":"Your destination is on the left.","bearing_before":78,"time":0.0,"length":0.0,"cost":0.0,"begin_shape_index":21,"end_shape_index":21,"travel_mode":"drive","travel_type":"car"}],"summary":{"has_time_restrictions":false,"has_toll":false,"has_highway":false,"has_ferry":false,"min_lat":42.506316,"min_lon":1.521618,"max_lat":42.508436,"max_lon":1.526517,"time":50.06,"length":0.548,"cost":67.057},"shape":"yckapAwh{{Ai@`AYxBNvB\\`AiS\\cLu`@}BeHmOeJwJE_L\\aCuXaE}]_A{i@N}OaFiZ{Lwn@q@uIiG_FiEePqBkS]eE"}],"summary":{"has_time_restrictions":false,"has_toll":false,"has_highway":false,"has_ferry":false,"min_lat":42.506316,"min_lon":1.521618,"max_lat":42.508436,"max_lon":1.526517,"time":50.06,"length":0.548,"cost":67.057},"status_message":"Found route between points","status":0,"units":"kilometers","language":"en-US"}}
"""#

/// Valhalla 3.9.1: `POST /trace_attributes` of that route's shape with `"shape_match":"edge_walk"`,
/// `"costing":"auto"` and the attributes `ValhallaEngine.traceAttributes`.
let valhallaAndorraTrace = #"""
{"units":"kilometers","shape":"yckapAwh{{Ai@`AYxBNvB\\`AiS\\cLu`@}BeHmOeJwJE_L\\aCuXaE}]_A{i@N}OaFiZ{Lwn@q@uIiG_FiEePqBkS]eE","edges":[{"surface":"paved_smooth","roundabout":true,"use":"road","traversability":"forward","end_shape_index":2,"begin_shape_index":0,"end_heading":296,"begin_heading":296,"road_class":"primary","end_node":{}},{"surface":"paved_smooth","roundabout":true,"use":"road","traversability":"forward","end_shape_index":4,"begin_shape_index":2,"end_heading":251,"begin_heading":251,"road_class":"primary","end_node":{"intersecting_edges":[{"walkability":"both","cyclability":"forward","driveability":"forward","begin_heading":191,"use":"road","road_class":"primary"}]}},{"surface":"paved_smooth","roundabout":false,"use":"road","traversability":"both","end_shape_index":6,"begin_shape_index":4,"end_heading":62,"begin_heading":358,"road_class":"unclassified","end_node":{}},{"surface":"paved_smooth","roundabout":false,"use":"road","traversability":"both","end_shape_index":7,"begin_shape_index":6,"end_heading":60,"begin_heading":60,"road_class":"unclassified","end_node":{}},{"surface":"paved_smooth","roundabout":false,"use":"road","traversability":"both","end_shape_index":10,"begin_shape_index":7,"end_heading":357,"begin_heading":27,"road_class":"unclassified","end_node":{"intersecting_edges":[{"walkability":"both","cyclability":"both","driveability":"both","begin_heading":258,"use":"road","road_class":"secondary"}]}},{"surface":"paved_smooth","roundabout":false,"use":"road","traversability":"both","end_shape_index":12,"begin_shape_index":10,"end_heading":75,"begin_heading":78,"road_class":"secondary","end_node":{"intersecting_edges":[{"walkability":"both","cyclability":"forward","driveability":"forward","begin_heading":308,"use":"road","road_class":"residential"}]}},{"surface":"paved_smooth","roundabout":false,"use":"road","traversability":"both","end_shape_index":15,"begin_shape_index":12,"end_heading":71,"begin_heading":86,"road_class":"secondary","end_node":{"intersecting_edges":[{"walkability":"both","cyclability":"forward","driveability":"forward","begin_heading":332,"use":"road","road_class":"residential"}]}},{"surface":"paved_smooth","roundabout":false,"use":"road","traversability":"both","end_shape_index":17,"begin_shape_index":15,"end_heading":76,"begin_heading":68,"road_class":"secondary","names":["Avinguda Meritxell"],"end_node":{"intersecting_edges":[{"walkability":"both","cyclability":"both","driveability":"both","begin_heading":68,"use":"road","road_class":"secondary"}]}},{"surface":"paved_smooth","roundabout":false,"use":"road","traversability":"both","end_shape_index":21,"begin_shape_index":17,"end_heading":78,"begin_heading":32,"road_class":"residential","names":["Carrer Bisbe Príncep Iglésias"],"end_node":{}}],"alternate_paths":[]}
"""#

/// Valhalla's real answer (HTTP 400) when a point is outside its tiles.
let valhallaNoSuitableEdges = #"""
{"error_code":171,"error":"No suitable edges near location","status_code":400,"status":"Bad Request"}
"""#

/// Valhalla's answer (HTTP 400) when no path joins the points, from its list of error codes.
let valhallaNoPath = #"""
{"error_code":442,"error":"No path could be found for input","status_code":400,"status":"Bad Request"}
"""#

/// Valhalla's real answer (HTTP 400) to an unknown costing.
let valhallaNoCosting = #"""
{"error_code":125,"error":"No costing method found: 'nope'","status_code":400,"status":"Bad Request"}
"""#

/// No GraphHopper server runs here: this answer is written in the shape of GraphHopper's `/route`
/// with `points_encoded=false&instructions=true` (its API documentation), over the same Andorra
/// line as OSRM's answer above, with an instruction where each OSRM step begins after the start.
let graphHopperAndorraRoute = #"""
{"hints":{"visited_nodes.sum":58,"visited_nodes.average":58.0},"info":{"copyrights":["GraphHopper","OpenStreetMap contributors"],"took":1},"paths":[{"distance":547.5,"weight":71.2,"time":54800,"transfers":0,"points_encoded":false,"bbox":[1.521618,42.506317,1.526518,42.508437],"points":{"type":"LineString","coordinates":[[1.52182,42.506317],[1.521787,42.506338],[1.521726,42.506351],[1.521666,42.506343],[1.521633,42.506328],[1.521618,42.506653],[1.522157,42.506863],[1.522304,42.506926],[1.522483,42.507189],[1.522486,42.507377],[1.522471,42.507585],[1.522883,42.50765],[1.523377,42.507747],[1.524063,42.507779],[1.524334,42.507771],[1.524771,42.507884],[1.525535,42.508106],[1.525706,42.508131],[1.525818,42.508264],[1.526093,42.508365],[1.526419,42.508422],[1.526518,42.508437]]},"instructions":[{"distance":193.9,"heading":311.0,"sign":0,"interval":[0,10],"text":"Continue","time":23900,"street_name":""},{"distance":193.4,"sign":2,"interval":[10,15],"text":"Turn right","time":12800,"street_name":""},{"distance":81.8,"sign":0,"interval":[15,17],"text":"Continue onto Avinguda Meritxell","time":6900,"street_name":"Avinguda Meritxell"},{"distance":78.5,"sign":-2,"interval":[17,21],"text":"Turn left onto Carrer Bisbe Príncep Iglésias","time":11200,"street_name":"Carrer Bisbe Príncep Iglésias"},{"distance":0.0,"sign":4,"last_heading":78.0,"interval":[21,21],"text":"Arrive at destination","time":0,"street_name":""}],"legs":[],"details":{},"ascend":0.0,"descend":0.0,"snapped_waypoints":{"type":"LineString","coordinates":[[1.52182,42.506317],[1.526518,42.508437]]}}]}
"""#

/// GraphHopper's answer (HTTP 400) when a point has no road near it.
let graphHopperCannotFindPoint = #"""
{"message":"Cannot find point 1: 48.0,2.0","hints":[{"message":"Cannot find point 1: 48.0,2.0","details":"com.graphhopper.util.exceptions.PointNotFoundException","point_index":1}]}
"""#

/// GraphHopper's answer (HTTP 400) when the points do not connect.
let graphHopperConnectionNotFound = #"""
{"message":"Connection between locations not found","hints":[{"message":"Connection between locations not found","details":"com.graphhopper.util.exceptions.ConnectionNotFoundException"}]}
"""#

/// GraphHopper's answer (HTTP 401) to a wrong API key.
let graphHopperWrongKey = #"""
{"message":"Wrong credentials. Register and get a valid API key at https://www.graphhopper.com/developers/"}
"""#
